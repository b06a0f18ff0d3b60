// The one place zod is configured; every module imports its schema builders from here
// (`import * as z from './zod'`). zod/mini rather than classic zod: classic cannot be
// tree-shaken and would be over half the extension bundle.
import { config, util } from 'zod/mini';
import { en } from 'zod/locales';

// English messages, as classic zod gives them.
config(en());

/**
 * zod compiles fast object parsers with `new Function`, after a probe that first reads
 * `navigator`; VS Code's extension host reports that read as an error (PendingMigrationError) on
 * every activation. The probe's answer is given here instead, without reading `navigator`. Should
 * zod's internals differ from what this expects, zod runs without compiling (jitless): slower on
 * large results, never wrong.
 */
function answerEvalProbe(): void {
  let canEval = false;
  try {
    canEval = typeof new Function('return 1') === 'function';
  } catch {
    // a policy forbids eval: zod must not compile either
  }
  const probe = (util as { allowsEval?: unknown }).allowsEval;
  const answerable = typeof probe === 'object' && probe !== null && 'value' in probe;
  if (canEval && answerable) {
    Object.defineProperty(probe, 'value', { value: true });
    return;
  }
  config({ jitless: true });
}
answerEvalProbe();

export * from 'zod/mini';
