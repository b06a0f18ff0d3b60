#!/usr/bin/env node
// A small MCP server for trying MCP Host: a notebook kept in memory (or in a JSON file when
// NOTES_FILE is set). It has tools, a resource per note, a resource template, a prompt, log
// messages and a skill (the Skills extension), so every part of the extension has something to show.
// Built on the official SDK; speaks MCP over stdio.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

/** @typedef {{ id: string, title: string, body: string, tags: string[], created: string }} Note */

const notesFile = process.env.NOTES_FILE;

/** @type {Map<string, Note>} */
const notes = new Map();
let nextId = 1;

function load() {
  if (notesFile) {
    try {
      for (const note of JSON.parse(readFileSync(notesFile, 'utf8'))) remember(note);
      return;
    } catch {
      // A missing or unreadable file starts a fresh notebook.
    }
  }
  const now = new Date().toISOString();
  remember({ id: '1', title: 'Welcome', body: 'This notebook lives in the notes demo server. Try the add_note tool.', tags: ['demo'], created: now });
  remember({ id: '2', title: 'Shopping', body: 'Coffee, oat milk, a new notebook.', tags: ['home'], created: now });
}

/** @param {Note} note */
function remember(note) {
  notes.set(note.id, note);
  nextId = Math.max(nextId, Number(note.id) + 1 || nextId);
}

function save() {
  if (notesFile) writeFileSync(notesFile, JSON.stringify([...notes.values()], null, 2));
}

/** @param {Note} note */
function noteUri(note) {
  return `notes://note/${note.id}`;
}

/** @param {Note} note */
function asText(note) {
  const tags = note.tags.length ? `\nTags: ${note.tags.join(', ')}` : '';
  return `# ${note.title}\n\n${note.body}${tags}\n`;
}

load();

const server = new McpServer(
  { name: 'notes-demo', title: 'Notes (demo)', version: '1.0.0' },
  {
    // The Skills extension (io.modelcontextprotocol/skills, SEP-2640): skills/list and skills/get below.
    capabilities: { logging: {}, extensions: { 'io.modelcontextprotocol/skills': {} } },
    instructions: 'A notebook. Use add_note to write, search_notes to find, and read notes://note/{id} resources.',
  },
);

server.registerTool(
  'add_note',
  {
    title: 'Add note',
    description: 'Adds a note to the notebook and returns its id.',
    inputSchema: {
      title: z.string().min(1).describe('A short title'),
      body: z.string().describe('The text of the note'),
      tags: z.array(z.string()).optional().describe('Optional tags'),
    },
  },
  async ({ title, body, tags }) => {
    const note = { id: String(nextId++), title, body, tags: tags ?? [], created: new Date().toISOString() };
    notes.set(note.id, note);
    save();
    server.sendResourceListChanged();
    await server.sendLoggingMessage({ level: 'info', logger: 'notes', data: `added note ${note.id}: ${title}` });
    return {
      content: [
        { type: 'text', text: `Added note ${note.id} ("${title}").` },
        { type: 'resource_link', uri: noteUri(note), name: note.title, mimeType: 'text/markdown' },
      ],
    };
  },
);

server.registerTool(
  'list_notes',
  {
    title: 'List notes',
    description: 'Lists every note with its id and title.',
    annotations: { readOnlyHint: true },
  },
  async () => {
    const lines = [...notes.values()].map((n) => `${n.id}. ${n.title}${n.tags.length ? ` [${n.tags.join(', ')}]` : ''}`);
    return { content: [{ type: 'text', text: lines.length ? lines.join('\n') : 'The notebook is empty.' }] };
  },
);

server.registerTool(
  'search_notes',
  {
    title: 'Search notes',
    description: 'Finds notes whose title, body or tags contain the query (case-insensitive).',
    inputSchema: { query: z.string().min(1).describe('Text to look for') },
    annotations: { readOnlyHint: true },
  },
  async ({ query }) => {
    const q = query.toLowerCase();
    const hits = [...notes.values()].filter((n) =>
      [n.title, n.body, ...n.tags].some((field) => field.toLowerCase().includes(q)),
    );
    if (hits.length === 0) return { content: [{ type: 'text', text: `No note mentions "${query}".` }] };
    return {
      content: hits.map((n) => ({ type: 'resource_link', uri: noteUri(n), name: n.title, mimeType: 'text/markdown' })),
    };
  },
);

server.registerTool(
  'delete_note',
  {
    title: 'Delete note',
    description: 'Deletes a note by id.',
    inputSchema: { id: z.string().describe('The id of the note') },
    annotations: { destructiveHint: true },
  },
  async ({ id }) => {
    if (!notes.delete(id)) return { isError: true, content: [{ type: 'text', text: `There is no note ${id}.` }] };
    save();
    server.sendResourceListChanged();
    return { content: [{ type: 'text', text: `Deleted note ${id}.` }] };
  },
);

// The template lists one resource per note, so notes show up in resources/list too.
server.registerResource(
  'note',
  new ResourceTemplate('notes://note/{id}', {
    list: async () => ({
      resources: [...notes.values()].map((n) => ({ uri: noteUri(n), name: n.title, mimeType: 'text/markdown' })),
    }),
    complete: { id: (value) => [...notes.keys()].filter((id) => id.startsWith(value)) },
  }),
  { title: 'Note', description: 'One note, as Markdown.', mimeType: 'text/markdown' },
  async (uri, { id }) => {
    const note = notes.get(String(id));
    if (!note) throw new Error(`There is no note ${id}.`);
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: asText(note) }] };
  },
);

server.registerResource(
  'index',
  'notes://index',
  { title: 'All notes', description: 'Every note in one Markdown document.', mimeType: 'text/markdown' },
  async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/markdown', text: [...notes.values()].map(asText).join('\n') }],
  }),
);

server.registerPrompt(
  'summarize_notes',
  {
    title: 'Summarize notes',
    description: 'Asks the model to summarize the notebook, optionally only notes with a tag.',
    argsSchema: { tag: z.string().optional().describe('Only notes with this tag') },
  },
  ({ tag }) => {
    const chosen = [...notes.values()].filter((n) => !tag || n.tags.includes(tag));
    return {
      description: tag ? `Summary of notes tagged "${tag}"` : 'Summary of all notes',
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Summarize these notes in a few bullet points:\n\n${chosen.map(asText).join('\n') || '(no notes)'}`,
          },
        },
      ],
    };
  },
);

// One skill, "note-taking": how to keep this notebook tidy. Its files are resources under
// skill://note-taking/; the listing gives each file's size and SHA-256 digest, which MCP Host
// checks before it shows the skill or hands it to a model.
const SKILL_FRONTMATTER = { name: 'note-taking', description: 'Keeps the notebook tidy, with a search before each new note, short titles and a few tags' };
const SKILL_FILES = {
  'SKILL.md': `---\nname: ${SKILL_FRONTMATTER.name}\ndescription: ${SKILL_FRONTMATTER.description}\n---\n\n` +
    '# Note-taking\n\n' +
    '1. Before `add_note`, run `search_notes` for the subject; if a note exists, say so instead of adding a second one.\n' +
    '2. Titles: five words at most, the subject first ("Coffee beans to buy", not "Note about shopping").\n' +
    '3. Tags: one to three, lower case, from [the tag list](references/TAGS.md) when one fits.\n' +
    '4. After adding, give the user the note\'s id and title.\n',
  'references/TAGS.md': '# Tags\n\n- `home`: errands, shopping, the house\n- `work`: meetings, tasks, people\n- `ideas`: anything to think about later\n- `demo`: the notes this server starts with\n',
};
const skillUri = (file) => `skill://${SKILL_FRONTMATTER.name}/${file}`;
const skillEntry = {
  uri: skillUri('SKILL.md'),
  frontmatter: SKILL_FRONTMATTER,
  resources: Object.entries(SKILL_FILES).map(([file, text]) => ({
    uri: skillUri(file),
    size: Buffer.byteLength(text),
    digest: `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`,
  })),
};
for (const [file, text] of Object.entries(SKILL_FILES)) {
  server.registerResource(`skill ${file}`, skillUri(file), { title: `Skill note-taking: ${file}`, mimeType: 'text/markdown' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/markdown', text }],
  }));
}
const skillParams = z.looseObject({ _meta: z.optional(z.unknown()) });
server.server.setRequestHandler(z.object({ method: z.literal('skills/list'), params: z.optional(skillParams.extend({ cursor: z.optional(z.string()) })) }), async () => ({ skills: [skillEntry] }));
server.server.setRequestHandler(z.object({ method: z.literal('skills/get'), params: skillParams.extend({ uri: z.string() }) }), async (request) => {
  if (request.params.uri !== skillEntry.uri) throw new Error(`There is no skill at ${request.params.uri}.`);
  return { skill: skillEntry };
});

await server.connect(new StdioServerTransport());
// stderr is the place for human-readable noise; stdout carries only protocol messages.
console.error(`notes-demo ready with ${notes.size} notes${notesFile ? ` (file ${notesFile})` : ''}`);
