// The YAML parser, loaded on the first skill file's frontmatter (see esbuild.mjs: shipped as its
// own file beside the bundle; at ~120 KiB it was the largest part activation read).
export { parse } from 'yaml';
