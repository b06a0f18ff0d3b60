// `mcp-host test FILE`: the saved calls of a test file, run headless for CI (one line a test,
// a summary, JUnit XML on request).
import { writeFileSync } from 'node:fs';
import { errorMessage } from '../protocol/errors';
import { SavedTestFile, SavedTestResult, junitXml, parseSavedTests } from '../usecases/savedTests';
import { readInputFile } from './inputFiles';

/** Reads a test file; a missing or malformed one (or one without tests) is a usage error that names it. */
export function readSavedTests(path: string): SavedTestFile {
  return readInputFile(path, (text) => {
    const file = parseSavedTests(text, path);
    if (file.tests.length === 0) throw new Error(`${path} has no tests`);
    return file;
  });
}

/** The closing line: counts of each outcome. */
export function testSummary(results: readonly SavedTestResult[]): string {
  const count = (outcome: SavedTestResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
  const errors = count('error');
  return `${results.length} test${results.length === 1 ? '' : 's'}: ${count('passed')} passed, ${count('failed')} failed${errors ? `, ${errors} could not run` : ''}`;
}

/** Writes the JUnit report (a failure to write is reported, not fatal to the results). */
export function writeJunit(path: string, results: readonly SavedTestResult[]): string | undefined {
  try {
    writeFileSync(path, junitXml(results));
    return undefined;
  } catch (error) {
    return `could not write ${path}: ${errorMessage(error)}`;
  }
}
