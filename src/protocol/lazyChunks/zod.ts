// zod (its small build), configured: the entry point of dist/vendor/zod.js (esbuild.mjs), required
// by ../zod.ts and ../zodOnDemand.ts only when a schema is first built, so activation neither
// loads zod nor builds a schema. zod/mini rather than classic zod: classic cannot be tree-shaken.
// Only the builders the project uses are exported (zod/mini's index re-exports every locale).
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

export {
  array,
  boolean,
  discriminatedUnion,
  enum,
  gt,
  gte,
  int,
  lazy,
  literal,
  looseObject,
  lte,
  maxLength,
  minLength,
  null,
  nullable,
  number,
  object,
  optional,
  record,
  refine,
  regex,
  strictObject,
  string,
  union,
  unknown,
} from 'zod/mini';
export type { core, infer, ZodMiniType } from 'zod/mini';
