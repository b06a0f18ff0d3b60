// Markdown from a server, as HTML safe to put into a webview. Built on markdown-it with raw HTML
// off (every `<` a server writes is escaped), images off (no remote fetch, no tracking pixel),
// and links allowed only to http/https. A link is rendered without `href`: it carries the URL in
// `data-href`, and the webview script asks the extension to open it after a click — nothing
// navigates by itself, and the extension checks the URL again before `openExternal`.
import type MarkdownIt from 'markdown-it';
import { assessUrl } from './urlSafety';

/** Above this many characters, text is not parsed as Markdown (shown as plain text instead). */
export const MAX_MARKDOWN_CHARS = 200_000;

/**
 * The URL to open for a link in a server's text, or undefined when MCP Host does not open it:
 * absolute http(s) only, under the same rules as a URL elicitation (`assessUrl`: no userinfo,
 * escapes or backslashes in the host part, no control characters). The result is the parsed,
 * normalised URL, the exact string to hand to the opener. Used by the renderer and again by the
 * extension when the webview asks to open a link.
 */
export function openableHref(url: unknown): string | undefined {
  // Reject whitespace that browsers strip before parsing the scheme (assessUrl trims it).
  if (typeof url !== 'string' || /[\u0000-\u0020\u007f-\u009f]/.test(url)) return undefined;
  const assessment = assessUrl(url);
  return assessment.kind === 'openable' ? assessment.href : undefined;
}

/** True for a link MCP Host would open (see `openableHref`). */
export function isOpenableUrl(url: unknown): url is string {
  return openableHref(url) !== undefined;
}

function escapeAttr(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;');
}

/** Escapes text for HTML element content or a quoted attribute. */
export function escapeHtml(text: string): string {
  return escapeAttr(text);
}

function create(): MarkdownIt {
  // Required here, not imported: markdown-it loads with the first panel that renders, not at activation.
  const vendor = require('./lazyChunks/markdownIt') as typeof import('./lazyChunks/markdownIt');
  const md = new vendor.MarkdownIt('default', { html: false, linkify: true, typographer: false, maxNesting: 40 });
  md.disable(['image']);
  md.validateLink = (url) => isOpenableUrl(url);
  md.renderer.rules.link_open = (tokens, idx) => {
    const token = tokens[idx];
    const title = token.attrGet('title');
    // validateLink ran before normalisation; check the final URL too, and show what opens.
    const href = openableHref(token.attrGet('href'));
    if (href === undefined) return '<span class="md-link-invalid">';
    const titleAttr = `${escapeAttr(title ? `${title}\n${href}` : href)}`;
    return `<a class="md-link" data-href="${escapeAttr(href)}" title="${titleAttr}" tabindex="0" role="link">`;
  };
  md.renderer.rules.link_close = (tokens, idx) => {
    // Pair a close with its open: find the matching link_open to see whether it was dropped.
    let depth = 0;
    for (let i = idx - 1; i >= 0; i--) {
      if (tokens[i].type === 'link_close') depth++;
      else if (tokens[i].type === 'link_open') {
        if (depth === 0) return isOpenableUrl(tokens[i].attrGet('href') ?? '') ? '</a>' : '</span>';
        depth--;
      }
    }
    return '</a>';
  };
  // The info string of a fence becomes a class name: keep only a plain language word.
  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const lang = /^[A-Za-z0-9_+#.-]{1,32}/.exec(tokens[idx].info.trim());
    tokens[idx].info = lang ? lang[0] : '';
    return fence ? fence(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  };
  // Inline styles would be refused by the CSP anyway; keep the markup free of them.
  for (const rule of ['th_open', 'td_open'] as const) {
    md.renderer.rules[rule] = (tokens, idx, options, _env, self) => {
      tokens[idx].attrs = null;
      return self.renderToken(tokens, idx, options);
    };
  }
  return md;
}

let instance: MarkdownIt | undefined;

/** Renders server Markdown to sanitised HTML (see the file comment for the rules). */
export function renderMarkdown(text: string): string {
  if (text.length > MAX_MARKDOWN_CHARS) return `<pre class="md-plain">${escapeHtml(text)}</pre>`;
  instance ??= create();
  return instance.render(text);
}

/**
 * Plain text (not Markdown) as HTML that keeps its shape: a blank line starts a paragraph, a line
 * break stays one, everything escaped. A long tool description stays readable, not one wall of text.
 */
export function plainTextHtml(text: string): string {
  return text
    .trim()
    .split(/\r?\n[ \t]*\r?\n\s*/)
    .map((para) => `<p>${escapeHtml(para).replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

/**
 * A guess whether text was written as Markdown (to pick the default view of a text part; the
 * user can switch). Looks for block syntax and links, not for a lone asterisk.
 */
export function looksLikeMarkdown(text: string): boolean {
  if (text.length > MAX_MARKDOWN_CHARS) return false;
  const sample = text.slice(0, 20_000);
  let score = 0;
  if (/^#{1,6} \S/m.test(sample)) score += 2;
  if (/^```/m.test(sample)) score += 2;
  if (/^\s{0,3}([-*+]|\d+[.)]) \S/m.test(sample)) score += 1;
  // Brackets and parentheses are excluded inside, so each attempt stops at the next one: linear
  // (with `[^\]]+` a run of 20,000 "[" took a second).
  if (/\[[^[\]\n]+\]\([^()\s]+\)/.test(sample)) score += 2;
  if (/\*\*[^*\n]+\*\*|__[^_\n]+__/.test(sample)) score += 1;
  if (/^\|.*\|\s*$/m.test(sample) && /^\|?\s*:?-{3,}/m.test(sample)) score += 2;
  if (/^> \S/m.test(sample)) score += 1;
  return score >= 2;
}
