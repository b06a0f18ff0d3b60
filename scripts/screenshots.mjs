// The pictures in README.md and docs/ (media/readme/) are screenshots the end-to-end suites take.
// This is the one list of which shot of which suite becomes which picture, and the command that
// makes them again on purpose:
//   npm run screenshots                      every suite that makes one
//   npm run screenshots -- first-screen,tasks   only these pictures (their suites)
// It runs those suites (node scripts/test.mjs --e2e) with MCP_HOST_README_SHOTS=1, which makes the
// harness write each listed shot to its picture as well (test/e2e/readmeShots.ts), then says which
// pictures changed. Look at each before committing it.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The variable that makes the harness write the listed shots to media/readme/. */
export const README_SHOTS_VAR = 'MCP_HOST_README_SHOTS';

/**
 * Each picture: `file` under media/readme/, made by `suite` (test/e2e/<suite>.ts) when it takes the
 * screenshot `shot`; `part`, a selector, keeps only that part of the window.
 */
export const README_SHOTS = [
  { file: 'first-screen.png', suite: 'firstContact.test', shot: 'first-tool-call' },
  { file: 'chat-approval.png', suite: 'chat.test', shot: 'chat-approval-panel', part: '.part.auxiliarybar' },
  { file: 'chat-answer.png', suite: 'chat.test', shot: 'chat-answer-panel', part: '.part.auxiliarybar' },
  { file: 'chat-app-view.png', suite: 'chatApps.test', shot: 'chat-app-view' },
  { file: 'mcp-app.png', suite: 'apps.test', shot: 'apps-basic-button' },
  { file: 'timeline.png', suite: 'timeline.test', shot: 'timeline-light', part: '.part.editor' },
  { file: 'tasks.png', suite: 'tasks.test', shot: 'tasks-panel-waiting' },
  { file: 'sign-in-prompt.png', suite: 'signIn.test', shot: 'signin-prompt' },
  { file: 'sign-in-details.png', suite: 'signIn.test', shot: 'signin-details' },
];

export const readmeShotsDir = join(repoRoot, 'media', 'readme');

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const wanted = process.argv.slice(2).flatMap((a) => a.split(',')).map((a) => a.replace(/\.png$/, '')).filter(Boolean);
  const unknown = wanted.filter((w) => !README_SHOTS.some((s) => s.file === `${w}.png`));
  if (unknown.length > 0) {
    console.error(`screenshots: no picture named ${unknown.join(', ')}; the pictures: ${README_SHOTS.map((s) => s.file.replace(/\.png$/, '')).join(', ')}`);
    process.exit(2);
  }
  const shots = wanted.length > 0 ? README_SHOTS.filter((s) => wanted.includes(s.file.replace(/\.png$/, ''))) : README_SHOTS;
  const suites = [...new Set(shots.map((s) => s.suite))];
  const mtime = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);
  const before = new Map(shots.map((s) => [s.file, mtime(join(readmeShotsDir, s.file))]));
  console.log(`screenshots: running ${suites.join(', ')} for ${shots.map((s) => s.file).join(', ')}`);
  const run = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'test.mjs'), '--e2e', `--only=${suites.map((s) => `e2e/${s}`).join(',')}`], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, [README_SHOTS_VAR]: '1' },
  });
  const made = shots.filter((s) => mtime(join(readmeShotsDir, s.file)) > (before.get(s.file) ?? 0));
  const missed = shots.filter((s) => !made.includes(s));
  for (const s of made) console.log(`  made media/readme/${s.file} (${s.suite}: ${s.shot}); look at it before committing`);
  for (const s of missed) console.log(`  NOT made media/readme/${s.file}: ${s.suite} did not reach ${s.shot}`);
  process.exit(run.status === 0 && missed.length === 0 ? 0 : 1);
}
