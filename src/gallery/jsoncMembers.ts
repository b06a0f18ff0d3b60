// Edits of a JSONC config file that touch only what they must: a member appended after the last
// one of its object or array (a comma after the previous value, the new member on a line of its
// own after the previous one's trailing comment, indented like it), and a value replaced in
// place. jsonc-parser's `modify` re-formats the lines around its edit, which moved a trailing
// comment of the previous entry below the new one and re-indented that entry; it is used only
// where no member precedes the new one (an empty object, a file without the key), so nothing of
// the user's is on those lines.
import { applyEdits, createScanner, findNodeAtLocation, FormattingOptions, JSONPath, modify, Node, parseTree, SyntaxKind } from 'jsonc-parser';

/** `text` with `value` as the last member of the object (with `key`) or array (without) at `path`, created when missing. */
export function appendMember(text: string, path: JSONPath, key: string | undefined, value: unknown, formatting: FormattingOptions): string {
  const container = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, path);
  if (!container) {
    // The object or array itself is missing: it becomes a member of its parent, holding the new one.
    if (!path.length) throw new Error('the file has no JSON object at its top');
    const made = key === undefined ? [value] : { [key]: value };
    return appendMember(text, path.slice(0, -1), String(path[path.length - 1]), made, formatting);
  }
  const inserted = insertAfterLastChild(text, container, key, value, formatting);
  if (inserted !== undefined) return inserted;
  const at = key === undefined ? [...path, -1] : [...path, key];
  return applyEdits(text, modify(text, at, value, { formattingOptions: formatting, ...(key === undefined ? { isArrayInsertion: true } : {}) }));
}

/** `text` with the value at `path` (which must exist) replaced by `value`; nothing outside that value changes. */
export function replaceValue(text: string, path: JSONPath, value: unknown, formatting: FormattingOptions): string {
  const node = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, path);
  if (!node) throw new Error(`nothing at ${path.join('.')} to replace`);
  const member = node.parent?.type === 'property' ? node.parent : node;
  return text.slice(0, node.offset) + valueText(value, lineIndent(text, member.offset) ?? '', formatting) + text.slice(node.offset + node.length);
}

/**
 * The insertion after the last child, or undefined when there is none. The new member gets a line
 * of its own after the last one's line (its trailing comment stays there) when that line ends
 * after it; in a one-line object or array it follows the last member on the same line.
 */
function insertAfterLastChild(text: string, container: Node, key: string | undefined, value: unknown, formatting: FormattingOptions): string | undefined {
  const last = container.children?.[container.children.length - 1];
  if (!last) return undefined;
  const valueEnd = last.offset + last.length;
  const scanner = createScanner(text, false);
  scanner.setPosition(valueEnd);
  let commaEnd: number | undefined;
  let lineEnd: number | undefined;
  for (let token = scanner.scan(); token !== SyntaxKind.EOF; token = scanner.scan()) {
    if (token === SyntaxKind.Trivia) continue;
    if (token === SyntaxKind.CommaToken && commaEnd === undefined) commaEnd = scanner.getTokenOffset() + 1;
    else if (token === SyntaxKind.LineCommentTrivia || (token === SyntaxKind.BlockCommentTrivia && !/[\r\n]/.test(scanner.getTokenValue()))) continue;
    else {
      if (token === SyntaxKind.LineBreakTrivia) lineEnd = scanner.getTokenOffset();
      break;
    }
  }
  const name = key === undefined ? '' : `${JSON.stringify(key)}: `;
  const indent = lineIndent(text, last.offset);
  if (lineEnd !== undefined && indent !== undefined) {
    const member = formatting.eol + indent + name + valueText(value, indent, formatting);
    return text.slice(0, valueEnd) + (commaEnd === undefined ? ',' : '') + text.slice(valueEnd, lineEnd) + member + text.slice(lineEnd);
  }
  const at = commaEnd ?? valueEnd;
  return text.slice(0, at) + (commaEnd === undefined ? ', ' : ' ') + name + JSON.stringify(value) + text.slice(at);
}

/** The whitespace a node's line starts with, when the node is the first thing on its line. */
function lineIndent(text: string, offset: number): string | undefined {
  const start = Math.max(text.lastIndexOf('\n', offset - 1) + 1, 0);
  const before = text.slice(start, offset);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

/** `value` as JSON indented by the file's unit, its later lines under `indent`. */
function valueText(value: unknown, indent: string, formatting: FormattingOptions): string {
  const unit = formatting.insertSpaces === false ? '\t' : ' '.repeat(formatting.tabSize ?? 2);
  return JSON.stringify(value, null, unit).split('\n').join((formatting.eol ?? '\n') + indent);
}
