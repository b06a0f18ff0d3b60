// What a workspace's saved tests may reach and when they ask (security review F8): a test file in
// a repository names servers by name, so it reaches the servers that workspace defines, not the
// user's own of the same name unless the user allows it; and its calls of tools that may change
// things ask as a hand call asks, once for the run, listing every such call. Plain: the Testing
// view adapts it, unit tests drive it.
import type { Tool } from '../client/schemas';
import { PlannedCall, callsNeedingApproval } from './runApproval';
import type { SavedTest } from './savedTests';

/** What the policy needs of a configured server. */
export interface TestServerCandidate {
  readonly entry: { readonly name: string; readonly source: { readonly workspaceDefined: boolean; readonly folder?: { readonly fsPath: string } } };
}

/** The server a test reaches, or why it reaches none. */
export type TestServerChoice<S> = { readonly server: S; readonly problem?: undefined } | { readonly server?: undefined; readonly problem: string };

/**
 * The server named `name` for a test of the folder at `folderPath`: the folder's own, else another
 * workspace-defined one; a server of the user's settings only when `allowUserServers`.
 */
export function serverForSavedTest<S extends TestServerCandidate>(name: string, folderPath: string, servers: readonly S[], allowUserServers: boolean): TestServerChoice<S> {
  const named = servers.filter((s) => s.entry.name === name);
  const workspace = named.filter((s) => s.entry.source.workspaceDefined);
  const server = workspace.find((s) => s.entry.source.folder?.fsPath === folderPath) ?? workspace[0] ?? (allowUserServers ? named[0] : undefined);
  if (server) return { server };
  if (named.length) return { problem: `the server ${JSON.stringify(name)} is one of your own (user settings), not this workspace's: a workspace's tests reach only its servers unless the setting mcpHost.tests.allowUserServers is on` };
  return { problem: `no server named ${JSON.stringify(name)} is configured in this workspace` };
}

/**
 * The confirmation of one run: asked at the first call that needs it, with every such call of the
 * run listed; the answer holds for the rest of the run.
 */
export class RunConfirmation {
  private answer: Promise<boolean> | undefined;

  /**
   * @param planned the run's tool tests with the tools their servers list (undefined: not known yet).
   * @param ask shows the calls and resolves true when the user lets them run.
   */
  constructor(
    private readonly planned: () => readonly { readonly test: SavedTest; readonly tools: readonly Tool[] | undefined }[],
    private readonly ask: (calls: readonly PlannedCall[]) => Promise<boolean>,
  ) {}

  /** The calls of the run that need a yes (by what each server lists now). */
  calls(): PlannedCall[] {
    return this.planned().flatMap(({ test, tools }) => (test.action.kind === 'tool' ? callsNeedingApproval([{ tool: test.action.tool, arguments: test.action.arguments, from: `test ${JSON.stringify(test.name)}` }], tools) : []));
  }

  /** The user's answer for this run (asked once). */
  confirm(): Promise<boolean> {
    return (this.answer ??= this.ask(this.calls()));
  }
}
