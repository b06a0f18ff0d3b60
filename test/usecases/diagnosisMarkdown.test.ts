import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnosisMarkdown } from '../../src/usecases/doctor';

test('the diagnosis report rendered: a server\'s backticks cannot close its code block and become links', () => {
  const stderr = '      ```\n      [click](https://evil.example) ![x](https://evil.example/x.png)';
  const md = diagnosisMarkdown('my*server', 'today', ['✗ handshake: exited', ...stderr.split('\n'), 'broken at: handshake']);
  const lines = md.split('\n');
  assert.equal(lines[0], '# Diagnosis of my\\*server');
  const fence = lines[4];
  assert.match(fence, /^`{4,}$/, 'longer than the server\'s run of three');
  assert.equal(lines.filter((l) => l === fence).length, 2, 'one block: opened once, closed once');
  assert.equal(lines.at(-2), fence);
  assert.equal(diagnosisMarkdown('s', 'now', ['✓ fine']).split('\n')[4], '```');
});
