// The Get Started walkthrough in package.json: each step's completion event is one that really
// happens (a command the extension declares or VS Code's own, a context key the extension sets),
// each step has its picture, its buttons run commands that exist, and "Get Started with MCP Host"
// opens it by the id package.json gives it. The view's welcome offers the same first steps.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { OPEN_WALKTHROUGH_COMMAND, WALKTHROUGH_ID, walkthroughArgument } from '../../src/extension/walkthrough';

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

interface Step {
  id: string;
  title: string;
  description: string;
  media: { svg?: string; image?: string; altText?: string };
  completionEvents: string[];
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : name.endsWith('.ts') ? [readFileSync(p, 'utf8')] : [];
  });
}

/** The context keys the extension sets (`setContext`, key) anywhere in src/. */
const contextKeys = new Set(sources(join(root, 'src')).flatMap((text) => [...text.matchAll(/'setContext',\s*'([\w.]+)'/g)].map((m) => m[1])));
const declared = new Set<string>(pkg.contributes.commands.map((c: { command: string }) => c.command));
/** VS Code's own commands the walkthrough uses (they exist in every VS Code the engine allows). */
const workbenchCommands = new Set(['workbench.action.chat.open', 'workbench.view.extension.mcpHost', 'workbench.action.files.openFolder', 'workbench.action.openSettings']);
const commandExists = (id: string) => declared.has(id) || workbenchCommands.has(id);
/**
 * Commands that open an editor (mcp.json, a tool panel). Run from the walkthrough in its own
 * group, they would replace it, and VS Code takes a hidden editor's page out of the window: the
 * step's tick would land on nothing the user sees. `command:toSide:` opens them beside it.
 */
const opensEditor = new Set(['mcpHost.createConfig', 'mcpHost.findTool']);

/** The problems of a step: completion events that cannot happen, a missing picture, a button to nowhere. */
function stepProblems(step: Step): string[] {
  const problems: string[] = [];
  if (step.completionEvents.length === 0) problems.push(`${step.id}: no completion event`);
  for (const event of step.completionEvents) {
    const [kind, what] = event.split(':', 2);
    if (kind === 'onCommand' && !commandExists(what)) problems.push(`${step.id}: ${event} names no command`);
    else if (kind === 'onContext' && !contextKeys.has(what)) problems.push(`${step.id}: ${event}: the extension never sets ${what}`);
    else if (kind !== 'onCommand' && kind !== 'onContext') problems.push(`${step.id}: ${event} is not an onCommand/onContext event`);
  }
  const media = step.media.svg ?? step.media.image;
  if (!media || !existsSync(join(root, media))) problems.push(`${step.id}: picture ${media} is missing`);
  if (!step.media.altText) problems.push(`${step.id}: picture without altText`);
  for (const [, toSide, id] of step.description.matchAll(/\]\(command:(toSide:)?([\w.]+)/g)) {
    if (!commandExists(id)) problems.push(`${step.id}: button runs unknown ${id}`);
    if (opensEditor.has(id) && !toSide) problems.push(`${step.id}: ${id} opens an editor over the walkthrough (use command:toSide:)`);
  }
  if (!/\]\(command:/.test(step.description)) problems.push(`${step.id}: no button`);
  return problems;
}

describe('the Get Started walkthrough', () => {
  const [walkthrough] = pkg.contributes.walkthroughs as Array<{ id: string; title: string; steps: Step[] }>;

  test('has the six first steps, in order', () => {
    assert.equal(walkthrough.id, WALKTHROUGH_ID);
    assert.equal(walkthrough.title, 'Get Started with MCP Host');
    assert.deepEqual(walkthrough.steps.map((s) => s.id), ['addServer', 'allowServer', 'callTool', 'readLog', 'tryChat', 'shareWithChat']);
  });

  test('every step completes on a real event, shows its picture and runs a command that exists', () => {
    assert.deepEqual(walkthrough.steps.flatMap(stepProblems), []);
  });

  test('the check finds a step whose event cannot happen (so the test above can fail)', () => {
    const bad: Step = { id: 'x', title: 'x', description: '[Go](command:mcpHost.noSuchCommand)\n[Make](command:mcpHost.createConfig)', media: { svg: 'media/none.svg' }, completionEvents: ['onCommand:mcpHost.noSuch', 'onContext:mcpHost.neverSet', 'onView:x'] };
    assert.deepEqual(stepProblems(bad).map((p) => p.split(':')[1].trim()), ['onCommand', 'onContext', 'onView', 'picture media/none.svg is missing', 'picture without altText', 'button runs unknown mcpHost.noSuchCommand', 'mcpHost.createConfig opens an editor over the walkthrough (use command']);
  });

  test('"Get Started with MCP Host" is declared and opens this walkthrough of this extension', () => {
    assert.ok(declared.has(OPEN_WALKTHROUGH_COMMAND));
    assert.equal(walkthroughArgument(pkg), `${pkg.publisher}.${pkg.name}#mcpHost.getStarted`);
    assert.throws(() => walkthroughArgument({ name: 'mcp-host' }), /no publisher or name/);
  });

  test("the view's welcome for an empty workspace offers the same first steps", () => {
    const welcome = pkg.contributes.viewsWelcome.filter((w: { when?: string }) => w.when?.startsWith('mcpHost.noServers'));
    assert.equal(welcome.length, 2);
    const withFolder = welcome.find((w: { when: string }) => w.when.includes('> 0')).contents as string;
    assert.ok(withFolder.indexOf('command:mcpHost.createConfig') < withFolder.indexOf(`command:${OPEN_WALKTHROUGH_COMMAND}`), 'create the config first, then the walkthrough');
    for (const w of welcome) assert.ok(w.contents.includes(`command:${OPEN_WALKTHROUGH_COMMAND}`), w.when);
  });
});
