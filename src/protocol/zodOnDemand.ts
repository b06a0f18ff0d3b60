// Schemas built on first use: zod (dist/vendor/zod.js in the bundles) is required then, not when
// the module that defines them loads, so activation neither loads zod nor builds a schema
// (test/extension/activationBundle.test.ts).
import type * as Zod from './zod';

let zod: typeof Zod | undefined;

/** zod's builders, required on the first call. */
export function loadZod(): typeof Zod {
  return (zod ??= require('./lazyChunks/zod') as typeof Zod);
}

/** A getter of the schemas `build` makes: built (and zod loaded) on its first call, the same ones after. */
export function onDemand<T>(build: (z: typeof Zod) => T): () => T {
  let built: T | undefined;
  return () => (built ??= build(loadZod()));
}
