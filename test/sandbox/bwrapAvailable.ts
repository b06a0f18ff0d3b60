// Whether this machine can build a bubblewrap sandbox (Linux, `bwrap` on PATH, user namespaces
// allowed): the sandbox tests and the bench skip what needs one, saying so, where it cannot.
import { execFileSync } from 'node:child_process';

/** True when `bwrap` builds a sandbox here; checked once. */
export const bwrapWorks: boolean = (() => {
  if (process.platform !== 'linux') return false;
  try {
    execFileSync('bwrap', ['--ro-bind', '/', '/', '--unshare-all', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
