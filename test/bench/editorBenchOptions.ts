// The editor benchmark's options (test/bench/editorBench.ts): sizes, the scenarios to run and the diagnosis switches, from its command line.
import { join } from 'node:path';
import { defaultVsixPath, repoRoot } from '../e2e/harness';

export const MiB = 1024 * 1024;
export const SERVER = join(repoRoot, 'test', 'fixtures', 'servers', 'scale.mjs');

export function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}
export const TOOLS = option('tools', 5000);
export const RESULT_MIB = option('mib', 50);
export const FRAMES = option('frames', 100_000);
export const STRICT = process.argv.includes('--strict');
/** `--profile`: CPU profiles of the extension host while expanding, during the call and the flood. */
export const PROFILE = process.argv.includes('--profile');
/** `--profile-page`: a CPU profile of the workbench's page (its renderer: the workbench and its webviews) during the flood. */
export const PROFILE_PAGE = process.argv.includes('--profile-page');
/** `--alloc`: a sampling profile of what the extension host allocates during the flood (collected or not). */
export const ALLOC = process.argv.includes('--alloc');
/** `--only tools,result,flood`: a subset of the scenarios (the 5,000 tools always start the server). */
export const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].split(',') : ['tools', 'result', 'flood'];
/**
 * `--root-priority`: Chromium as root starts it (display threads at nice -8). By default it starts
 * without CAP_SYS_NICE, at the priority a user's editor gets (LaunchOptions.userPriority).
 */
export const ROOT_PRIORITY = process.argv.includes('--root-priority');
/** `--vsix FILE`: another build of MCP Host (e.g. the one before a change, for its figures). */
export const VSIX = process.argv.includes('--vsix') ? process.argv[process.argv.indexOf('--vsix') + 1] : defaultVsixPath;
