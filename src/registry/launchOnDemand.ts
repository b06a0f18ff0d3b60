// ServerLaunch and the client it makes (McpClient, the era negotiation, tasks, the result
// schemas) are loaded with the first start, while it is prepared, not at activation: in the
// extension's bundle they are a chunk of their own (esbuild.mjs), and the tree's first rows need
// none of them (test/extension/activationBundle.test.ts).
import type * as Launch from './serverLaunch';

let loaded: typeof Launch | undefined;

/** Loads the launch's code; a start awaits it with its preparation. */
export async function loadServerLaunch(): Promise<void> {
  loaded ??= await import('./serverLaunch.js');
}

/** ServerLaunch, once loadServerLaunch() has settled (every start awaits it before making a launch). */
export function serverLaunchClass(): typeof Launch.ServerLaunch {
  if (!loaded) throw new Error('ServerLaunch is used before its module was loaded (loadServerLaunch)');
  return loaded.ServerLaunch;
}
