// Every relative link and image in README.md, the root documents and docs/ resolves: the file
// exists, and an anchor names a heading of that page. External links (https:, mailto:) and
// VS Code's command: links are not followed.
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT, anchorsOf, docPages, linkTargets, read } from './markdown';

const external = /^(https?:|mailto:|command:)/;

/** The broken links of one page, each with why. */
function brokenLinks(page: string): string[] {
  const broken: string[] = [];
  for (const target of linkTargets(read(page))) {
    if (external.test(target)) continue;
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    const file = pathPart === '' ? page : normalize(join(dirname(page), decodeURI(pathPart)));
    if (file.startsWith('..')) {
      broken.push(`${target}: leaves the repository`);
      continue;
    }
    if (!existsSync(join(ROOT, file))) {
      broken.push(`${target}: ${file} does not exist`);
      continue;
    }
    if (anchor !== undefined && !statSync(join(ROOT, file)).isDirectory() && file.endsWith('.md') && !anchorsOf(read(file)).has(anchor)) {
      broken.push(`${target}: ${file} has no heading with the anchor #${anchor}`);
    }
  }
  return broken;
}

describe('links in the docs', () => {
  for (const page of docPages()) {
    test(`${page}: every relative link and image resolves`, () => {
      assert.deepEqual(brokenLinks(page), []);
    });
  }

  test('the reader finds a broken link, a missing image and a wrong anchor (a check that can fail)', () => {
    const text = '# Title\n\n[ok](#title) [bad](#nope) ![img](media/none.png) <img src="docs/x.png"> `[code](no.md)`\n\n```\n[fenced](no.md)\n```\n';
    const targets = linkTargets(text);
    assert.deepEqual(targets, ['#title', '#nope', 'media/none.png', 'docs/x.png']);
    assert.ok(anchorsOf(text).has('title'));
    assert.ok(!anchorsOf(text).has('nope'));
  });

  test("anchors follow GitHub's rules (punctuation dropped, a dash kept, repeats numbered)", () => {
    const anchors = anchorsOf("# Remote – SSH, WSL and dev containers\n## What you need for @mcp\n## Tasks\n## Tasks\n## `mcpHost.servers`\n");
    assert.deepEqual([...anchors], ['remote--ssh-wsl-and-dev-containers', 'what-you-need-for-mcp', 'tasks', 'tasks-1', 'mcphostservers']);
  });
});
