// Runs inside the desktop Extension Development Host (see runTest.ts); no test framework, just
// the checks, each printed. Throwing fails the run.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

interface Manifest {
  publisher: string;
  name: string;
  contributes?: { commands?: { command: string }[]; viewsContainers?: { activitybar?: { id: string }[] } };
}

export async function run(): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as Manifest;
  const id = `${manifest.publisher}.${manifest.name}`;
  const check = async (name: string, body: () => Promise<void> | void): Promise<void> => {
    await body();
    console.log(`ok - ${name}`);
  };

  const extension = vscode.extensions.getExtension(id);
  await check(`${id} is loaded`, () => assert.ok(extension, `${id} is not among the extensions`));
  await check('it activates', async () => {
    await extension!.activate();
    assert.ok(extension!.isActive);
  });
  await check('every contributed command is registered', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = (manifest.contributes?.commands ?? []).map((c) => c.command).filter((c) => !registered.has(c));
    assert.deepEqual(missing, []);
  });
  for (const container of manifest.contributes?.viewsContainers?.activitybar ?? []) {
    await check(`the "${container.id}" view container opens`, async () => {
      await vscode.commands.executeCommand(`workbench.view.extension.${container.id}`);
    });
  }
}
