// The log says what is true of the listed language models: listed is not usable, and what @mcp
// needs to run at all (VS Code answers "Language model unavailable" before calling it otherwise).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite, test } from 'node:test';
import { describeListedModels } from '../../src/chat/modelAvailability';

suite('what the log says of the language models', () => {
  test('a listed model is not claimed usable, and what @mcp needs is said', () => {
    const text = describeListedModels('start-up', [{ vendor: 'copilotcli', id: 'auto' }]);
    assert.match(text, /^Language models listed \(start-up\): copilotcli\/auto\. Listed is not usable/);
    assert.match(text, /only with a model selected in the chat's model picker that can answer \(signed in, with quota\)/);
    assert.match(text, /"Language model unavailable" before @mcp is called/);
  });
  test('none listed: says what to install', () => {
    assert.match(describeListedModels('extensions changed', []), /none listed \(extensions changed\)[\s\S]*install and sign in to a model provider/);
  });
  test('the participant’s description says it needs a selected model', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
    assert.match(pkg.contributes.chatParticipants[0].description, /Needs a model selected in the model picker, even for \/tools/);
  });
});
