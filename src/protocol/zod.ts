// The one place zod is reached: modules that build schemas when they load import its builders
// from here (`import * as z from './zod'`); zod itself, configured, is lazyChunks/zod.ts
// (dist/vendor/zod.js in the bundles). A module activation loads must not import this at run
// time (only `import type`): it builds its schemas on first use through zodOnDemand.ts.
export * from './lazyChunks/zod';
