// Where a workspace keeps its saved calls as tests; on its own so the editor can look for the file
// at activation without loading the tests' code (savedTests.ts).

/** The file's default name in a workspace. */
export const SAVED_TESTS_FILE = '.vscode/mcp-tests.json';
