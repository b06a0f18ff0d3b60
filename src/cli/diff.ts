// `mcp-host diff`: what changed between two `inspect --json` snapshots, or a snapshot and the live server.
import { OfferChange, ServerOffer, describeOfferChange, parseOfferSnapshot } from '../usecases/offerDiff';
import { errorMessage } from '../protocol/errors';
import { readInputFile } from './inputFiles';

/** Reads a snapshot file; a missing file or one that is not a snapshot is a usage error naming it. */
export function readOfferSnapshot(path: string): ServerOffer {
  return readInputFile(path, (text) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new Error(`${path} is not JSON: ${errorMessage(error)}`);
    }
    return parseOfferSnapshot(value, path);
  });
}

/** The diff as printed: one line a change (or "no changes"), or `{"changes":[…]}` with --json. */
export function renderOfferChanges(changes: readonly OfferChange[], json: boolean): string {
  if (json) return JSON.stringify({ changes }, null, 2);
  if (changes.length === 0) return 'no changes';
  return changes.map(describeOfferChange).join('\n');
}
