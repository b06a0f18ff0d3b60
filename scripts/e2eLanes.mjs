// The end-to-end files in lanes, for `node scripts/test.mjs --e2e-jobs=N` (test/e2e/README.md, "Two
// files at a time"). Every launch owns its port, user-data, extensions and temp folders and its
// process marker (test/e2e/harness.ts), fixture extensions are packaged once and renamed into place
// (fixtureExtensions.ts), and a suite's own workspaces are temp folders; what two files could still
// share is a folder of the repository opened in place, so the files that name the same one share a
// lane.

/**
 * The folders of the repository an end-to-end file's source names as workspaces
 * (test/e2e/workspaces/<name>, demo/): two windows on one folder at once could see each other's
 * writes (.vscode/, files a test edits).
 * @param {string} source the test file's TypeScript
 * @returns {Set<string>}
 */
export function repoWorkspacesOf(source) {
  const names = new Set();
  for (const m of source.matchAll(/(?:'workspaces',\s*|WORKSPACES,\s*)'([\w-]+)'/g)) names.add(`workspaces/${m[1]}`);
  if (/repoRoot,\s*'demo'/.test(source)) names.add('demo');
  return names;
}

/**
 * `files` in at most `jobs` lanes, each to run one file at a time, the lanes side by side: files
 * that name a common folder (repoWorkspacesOf) in one group, the largest group first, each into
 * the lane with the fewest files.
 * @param {readonly string[]} files
 * @param {number} jobs
 * @param {(file: string) => string} readSource the source of a file
 * @returns {string[][]}
 */
export function e2eLanes(files, jobs, readSource) {
  /** @type {{ files: string[], folders: Set<string> }[]} */
  const groups = [];
  for (const file of files) {
    const folders = repoWorkspacesOf(readSource(file));
    const joined = groups.filter((g) => [...folders].some((f) => g.folders.has(f)));
    const group = { files: [file, ...joined.flatMap((g) => g.files)], folders: new Set([...folders, ...joined.flatMap((g) => [...g.folders])]) };
    for (const g of joined) groups.splice(groups.indexOf(g), 1);
    groups.push(group);
  }
  /** @type {string[][]} */
  const lanes = Array.from({ length: Math.max(1, Math.min(jobs, groups.length)) }, () => []);
  for (const g of groups.sort((a, b) => b.files.length - a.files.length)) lanes.reduce((a, b) => (b.length < a.length ? b : a)).push(...g.files);
  return lanes.map((lane) => lane.sort());
}
