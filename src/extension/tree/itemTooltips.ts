// Tooltip Markdown of the Servers tree's tool, resource, template and prompt rows, and the short
// descriptions beside them. Pure (no `vscode`); server text goes through `untrustedText`.
import type { Prompt, Resource, ResourceTemplate, Tool, ToolAnnotations } from '../../client/schemas';
import { escapeMarkdown, untrustedText } from '../../content/untrustedText';
import { truncate } from '../../protocol/text';
import { revealInvisible } from '../../content/invisibleText';

/** A parameter of a tool's input schema, as the tooltip lists it. */
export interface ParameterSummary {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description?: string;
}

/** A short type for a JSON Schema: "string", "integer | null", "array<string>", "enum(a, b)", "object". */
export function schemaType(schema: unknown, depth = 0): string {
  if (schema === true || schema === undefined) return 'any';
  if (!schema || typeof schema !== 'object') return 'any';
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum)) return `enum(${s.enum.slice(0, 6).map((v) => JSON.stringify(v)).join(', ')}${s.enum.length > 6 ? ', …' : ''})`;
  if ('const' in s) return `const ${JSON.stringify(s.const)}`;
  const alternatives = (s.anyOf ?? s.oneOf) as unknown;
  if (Array.isArray(alternatives) && depth < 3) return alternatives.map((a) => schemaType(a, depth + 1)).join(' | ');
  const type = s.type;
  const one = (t: unknown): string => {
    if (t === 'array' && depth < 3) return s.items ? `array<${schemaType(s.items, depth + 1)}>` : 'array';
    return typeof t === 'string' ? t : 'any';
  };
  if (Array.isArray(type)) return type.map(one).join(' | ');
  if (type !== undefined) return one(type);
  if (s.properties) return 'object';
  return 'any';
}

/** Parameters of a tool's `inputSchema`: name, type, required, description. */
export function summarizeInputSchema(inputSchema: unknown): ParameterSummary[] {
  if (!inputSchema || typeof inputSchema !== 'object') return [];
  const s = inputSchema as { properties?: unknown; required?: unknown };
  const props = s.properties && typeof s.properties === 'object' ? (s.properties as Record<string, unknown>) : {};
  const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : []);
  return Object.entries(props).map(([name, prop]) => {
    const description = prop && typeof prop === 'object' && typeof (prop as { description?: unknown }).description === 'string' ? (prop as { description: string }).description : undefined;
    return { name, type: schemaType(prop), required: required.has(name), description };
  });
}

/** Declared tool annotations in words: "read-only", "destructive", "idempotent", "open world" (or their negations). */
export function annotationWords(annotations: ToolAnnotations | undefined): string[] {
  if (!annotations) return [];
  const words: string[] = [];
  const pick = (value: boolean | undefined, yes: string, no: string) => {
    if (value === true) words.push(yes);
    else if (value === false) words.push(no);
  };
  pick(annotations.readOnlyHint, 'read-only', 'may modify its environment');
  pick(annotations.destructiveHint, 'destructive', 'not destructive');
  pick(annotations.idempotentHint, 'idempotent', 'not idempotent');
  pick(annotations.openWorldHint, 'open world', 'closed world');
  return words;
}

function parametersMarkdown(params: readonly ParameterSummary[]): string[] {
  if (params.length === 0) return ['*No parameters*'];
  const lines = ['**Parameters**', ''];
  for (const p of params.slice(0, 40)) {
    const desc = p.description ? ` — ${untrustedText(p.description, 200)}` : '';
    lines.push(`- ${escapeMarkdown(p.name)}: ${escapeMarkdown(p.type)}${p.required ? ' (required)' : ''}${desc}`);
  }
  if (params.length > 40) lines.push(`- … ${params.length - 40} more`);
  return lines;
}

/** Tooltip Markdown of a tool: title, description, parameters, annotations. */
export function toolTooltip(tool: Tool): string {
  const lines: string[] = [];
  const title = tool.title ?? tool.annotations?.title;
  lines.push(`**${escapeMarkdown(tool.name)}**${title ? ` — ${untrustedText(title, 200)}` : ''}`);
  if (tool.description) lines.push('', untrustedText(tool.description));
  lines.push('', ...parametersMarkdown(summarizeInputSchema(tool.inputSchema)));
  const words = annotationWords(tool.annotations);
  if (words.length) lines.push('', `**Annotations:** ${escapeMarkdown(words.join(' · '))}`);
  if (tool.outputSchema) lines.push('', '*Declares structured output*');
  return lines.join('\n');
}

/** Tooltip Markdown of a resource. */
export function resourceTooltip(resource: Resource): string {
  const lines: string[] = [`**${untrustedText(resource.title ?? resource.name, 200)}**`, '', untrustedText(resource.uri, 500)];
  if (resource.description) lines.push('', untrustedText(resource.description));
  const facts: string[] = [];
  if (resource.mimeType) facts.push(resource.mimeType);
  if (typeof resource.size === 'number') facts.push(`${resource.size} bytes`);
  if (facts.length) lines.push('', escapeMarkdown(facts.join(' · ')));
  return lines.join('\n');
}

/** Tooltip Markdown of a resource template. */
export function templateTooltip(template: ResourceTemplate): string {
  const lines: string[] = [`**${untrustedText(template.title ?? template.name, 200)}**`, '', untrustedText(template.uriTemplate, 500)];
  if (template.description) lines.push('', untrustedText(template.description));
  if (template.mimeType) lines.push('', escapeMarkdown(template.mimeType));
  return lines.join('\n');
}

/** Tooltip Markdown of a prompt: description and arguments. */
export function promptTooltip(prompt: Prompt): string {
  const lines: string[] = [`**${escapeMarkdown(prompt.name)}**${prompt.title ? ` — ${untrustedText(prompt.title, 200)}` : ''}`];
  if (prompt.description) lines.push('', untrustedText(prompt.description));
  const args = prompt.arguments ?? [];
  if (args.length === 0) lines.push('', '*No arguments*');
  else {
    lines.push('', '**Arguments**', '');
    for (const a of args.slice(0, 40)) {
      const desc = a.description ? ` — ${untrustedText(a.description, 200)}` : '';
      lines.push(`- ${escapeMarkdown(a.name)}${a.required ? ' (required)' : ''}${desc}`);
    }
  }
  return lines.join('\n');
}

/**
 * Description of a tool or prompt row: the first line of its description, else its title. The
 * label is the name and the tooltip shows the title, so the title is not repeated before the
 * description ("Echo Tool — Echoes back the input" reads as noise at sidebar width).
 */
export function itemDescription(title: string | undefined, description: string | undefined): string {
  const text = description?.split(/\r?\n/).find((line) => line.trim() !== '') ?? title;
  return text ? truncate(revealInvisible(text.trim()), 80) : '';
}
