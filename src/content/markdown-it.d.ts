// The few parts of markdown-it (which ships no types) that markdown.ts uses.
declare module 'markdown-it' {
  interface Token {
    type: string;
    tag: string;
    attrs: Array<[string, string]> | null;
    content: string;
    info: string;
    children: Token[] | null;
    attrGet(name: string): string | null;
  }
  type RenderRule = (tokens: Token[], idx: number, options: unknown, env: unknown, self: Renderer) => string;
  interface Renderer {
    rules: Record<string, RenderRule | undefined>;
    renderToken(tokens: Token[], idx: number, options: unknown): string;
  }
  interface Options {
    html?: boolean;
    linkify?: boolean;
    typographer?: boolean;
    breaks?: boolean;
    xhtmlOut?: boolean;
    maxNesting?: number;
  }
  class MarkdownIt {
    constructor(preset?: 'default' | 'commonmark' | 'zero', options?: Options);
    validateLink: (url: string) => boolean;
    renderer: Renderer;
    utils: { escapeHtml(text: string): string };
    disable(rules: string | string[], ignoreInvalid?: boolean): this;
    enable(rules: string | string[], ignoreInvalid?: boolean): this;
    render(src: string, env?: unknown): string;
  }
  export = MarkdownIt;
}
