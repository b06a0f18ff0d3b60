// The linter of `npm test` (scripts/test.mjs runs it first; `npm run lint` alone). Few rules, each
// for a bug tsc does not see: a promise nobody awaits or catches (an extension host swallows its
// rejection), a promise where a callback's void is expected, a switch over a union that misses a
// member, an `await` on something that is not a promise; and the size guards of issue 34 (no file
// over 600 lines, no function over ~80).
// Left out: no-unnecessary-condition (383 findings on the tree of 2026-11-29, nearly all guards the
// types call needless but the data does not: array and record reads without noUncheckedIndexedAccess,
// server and webview input checked beyond its declared type, `timer.unref?.()`); following it would
// remove checks on untrusted input.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/**
 * Size guards for every file we write (TypeScript and JavaScript alike): a file's lines all count
 * (issue 34's "no file over 600 lines" counts them so), a function's without blanks and comments.
 */
const sizeRules = {
  'max-lines': ['error', { max: 600 }],
  'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
};

/** Core rules that find bugs without types, for the JavaScript files (tsc checks the TypeScript). */
const plainBugRules = {
  'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', ignoreRestSiblings: true }],
  'no-dupe-keys': 'error',
  'no-dupe-else-if': 'error',
  'no-duplicate-case': 'error',
  'no-self-assign': 'error',
  'no-self-compare': 'error',
  'no-unreachable': 'error',
  'no-unsafe-finally': 'error',
  'no-cond-assign': 'error',
  'no-fallthrough': 'error',
  'no-sparse-arrays': 'error',
  'no-loss-of-precision': 'error',
  'use-isnan': 'error',
  'valid-typeof': 'error',
};

export default defineConfig(
  {
    // Built output, generated files and data; test/fixtures holds servers (linted below) and schemas.
    ignores: ['out/**', 'dist/**', 'node_modules/**', '.out-*/**', 'test-results/**', '.vscode-test/**', 'test/fixtures/mcp-schema/**', 'demo/**'],
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      ...sizeRules,
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true, allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'suite', 'it'] }] }],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: { ...sizeRules, ...plainBugRules },
  },
  {
    files: ['**/*.cjs', 'media/**/*.js'],
    languageOptions: { sourceType: 'script' },
  },
  {
    // The webview scripts' directives name no-undef, which needs the browser's globals (not run here).
    files: ['media/**/*.js'],
    linterOptions: { reportUnusedDisableDirectives: 'off' },
  },
  {
    // A suite's callback is the list of its tests, not a function that does one job.
    files: ['test/**/*.test.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    // shrinking: issue 34 — the files with a function over 80 lines today; remove each once it is under.
    files: [
      'scripts/demo.mjs',
      'test/bench/bench.ts',
      'test/bench/editorBench.ts',
      'test/bench/timelineRender.ts',
      'test/e2e/chatDriver.ts',
      'test/e2e/fixtures/host-probe/extension.js',
      'test/e2e/taskDriver.ts',
      'test/fixtures/servers/erasServer.mjs',
      'test/fixtures/servers/modernTasksServer.mjs',
    ],
    rules: { 'max-lines-per-function': 'off' },
  },
);
