// The linear-time regular expression engine for server patterns (safePattern.ts), loaded on the
// first pattern checked (see esbuild.mjs: shipped as its own file beside the bundle).
export { RE2JS } from 're2js';
