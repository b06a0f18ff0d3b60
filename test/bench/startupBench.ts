// The start-up benchmark (`npm run bench:editor` runs it before the editor benchmark; not part of
// `npm test`: speed is measured, not tested): in a real VS Code (code-server + Chromium,
// test/e2e/harness.ts), the activation time VS Code itself records for MCP Host ("Developer: Show
// Running Extensions"), and the time from the server's initialize result to its tools in the tree.
// Exits 1 when a figure cannot be read (the bench measured nothing), never on its value.
//
//   node out/test/bench/startupBench.js [--vsix FILE]
import { join } from 'node:path';
import { defaultVsixPath, launch, poll, repoRoot, type Workbench } from '../e2e/harness';

const WORKSPACE = join(repoRoot, 'test', 'e2e', 'workspaces', 'basic');
const VSIX = process.argv.includes('--vsix') ? process.argv[process.argv.indexOf('--vsix') + 1] : (process.env.MCP_HOST_VSIX ?? defaultVsixPath);

/** `2026-11-23 09:07:37.466 [info] <text>`: the epoch ms of the first line of a log that contains `text`. */
function lineTime(log: string, text: string): number | undefined {
  const line = log.split('\n').find((l) => l.includes(text));
  const m = line && /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3}) /.exec(line);
  return m ? new Date(`${m[1]}T${m[2]}`).getTime() : undefined;
}

async function measure(wb: Workbench): Promise<void> {
  await wb.openView('MCP Host');
  await wb.waitForTreeItem('everything', { timeoutMs: 30_000 });
  // Watch for the Tools row in the page itself, so its moment is not a polling interval late.
  const toolsShown = wb.page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const found = () => Array.from(document.querySelectorAll('.monaco-list-row .label-name')).some((e) => e.textContent?.trim() === 'Tools');
        const observer = new MutationObserver(() => {
          if (found()) {
            observer.disconnect();
            resolve(Date.now());
          }
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      }),
  );
  const consent = await wb.dialog({ timeoutMs: 20_000 });
  if (!consent) throw new Error('no consent dialog');
  await wb.answerDialog(consent.buttons.includes('Allow All') ? 'Allow All' : 'Allow');
  const shownAt = await toolsShown;
  const log = await wb.outputChannelText('MCP: everything', { contains: 'initialized: mcp-servers/everything', reveal: false });
  const initializedAt = lineTime(log, 'initialized: mcp-servers/everything');
  if (!initializedAt) throw new Error('the initialized line has no time');
  console.log(`time to tools: ${shownAt - initializedAt} ms from the initialize result (log ${new Date(initializedAt).toISOString()}) to the Tools row (goal <= 300 ms)`);

  // VS Code's own record of the activation.
  await wb.runCommand('Developer: Show Running Extensions');
  const row = wb.page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: 'MCP Host' }).first();
  let text = '';
  await poll(async () => /\d+\s*ms/.test((text = await row.innerText().catch(() => ''))), { timeoutMs: 15_000, what: `the MCP Host row of Running Extensions with a time (row: ${JSON.stringify(text)})` });
  console.log(`activation recorded by VS Code (Running Extensions): ${/(\d+)\s*ms/.exec(text)![1]} ms`);
  await wb.screenshot('bench-startup-running-extensions');
}

async function main(): Promise<void> {
  const wb = await launch({ workspace: WORKSPACE, vsix: VSIX });
  try {
    await measure(wb);
  } finally {
    await wb.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
