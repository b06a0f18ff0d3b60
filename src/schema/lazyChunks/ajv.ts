// ajv's two dialects, loaded on the first schema check (see esbuild.mjs: shipped as its own file
// beside the bundle). One module for both, so their shared core is in the file once.
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';

export { Ajv, Ajv2020 };
