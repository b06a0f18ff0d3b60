// markdown-it, loaded on first render (see esbuild.mjs: shipped as its own file beside the bundle).
import MarkdownIt from 'markdown-it';

export { MarkdownIt };
