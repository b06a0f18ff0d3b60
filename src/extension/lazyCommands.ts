// Commands whose implementation sits in a lazy chunk (`await import()`, not read at activation):
// their ids are registered at activation, so the palette, menus and keybindings find them at once,
// and the first run loads the module, which registers the real commands in their place; that run
// (and any made while the module loads) then goes to the real command. The ids of every such part
// are here, so activation registers them without reading the part.
import type { Disposable } from '../protocol/disposable';
import { loadOnce } from './onDemand';

/** The part of `vscode.commands` this needs (unit tests pass their own). */
export interface CommandRegistry {
  registerCommand(id: string, run: (...args: unknown[]) => unknown): Disposable;
  executeCommand(id: string, ...args: unknown[]): PromiseLike<unknown>;
}

/** Placeholder commands; `load()` loads their part now, as a first run would (the part may be needed before any command). */
export interface LazyCommands extends Disposable {
  load(): Promise<void>;
}

/**
 * Registers `ids` now; the first run of one (or `load()`) calls `load` (import the module), then
 * `register` with what it loaded, which registers the real commands under the same ids and
 * returns what to dispose with the extension. The placeholders go just before `register` runs,
 * synchronously, so no id is ever missing.
 */
export function registerLazyCommands<M>(commands: CommandRegistry, ids: readonly string[], load: () => Promise<M>, register: (module: M) => Disposable | readonly Disposable[]): LazyCommands {
  let placeholders: Disposable[] | undefined;
  let registered: readonly Disposable[] = [];
  let disposed = false;
  // A module that failed to load is loaded again by a later run (which shows its own error).
  const loaded = loadOnce(async () => {
    const module = await load();
    if (disposed) return;
    for (const p of placeholders ?? []) p.dispose();
    placeholders = undefined;
    const made = register(module);
    registered = Array.isArray(made) ? made : [made as Disposable];
  });
  placeholders = ids.map((id) =>
    commands.registerCommand(id, async (...args: unknown[]) => {
      await loaded();
      return disposed ? undefined : commands.executeCommand(id, ...args);
    }),
  );
  return {
    load: loaded,
    dispose: () => {
      disposed = true;
      for (const d of [...(placeholders ?? []), ...registered]) d.dispose();
      placeholders = undefined;
      registered = [];
    },
  };
}

/** The registry gallery's command ids: registered at activation (lazyFeatures.ts), used by the gallery's own chunk. */
export const RegistryGalleryCommands = { browse: 'mcpHost.registry.browse', setToken: 'mcpHost.registry.setToken', update: 'mcpHost.registry.update', checkUpdates: 'mcpHost.registry.checkUpdates' } as const;

/** The use cases' commands (panels/useCaseCommands.ts). */
export const UseCaseCommands = {
  callTool: 'mcpHost.tool.call',
  openResource: 'mcpHost.resource.open',
  readResourceUri: 'mcpHost.resource.openUri',
  toggleSubscription: 'mcpHost.resource.toggleSubscription',
  subscribe: 'mcpHost.resource.subscribe',
  unsubscribe: 'mcpHost.resource.unsubscribe',
  readTemplate: 'mcpHost.template.read',
  getPrompt: 'mcpHost.prompt.get',
  ping: 'mcpHost.server.ping',
  setLogLevel: 'mcpHost.server.setLogLevel',
  copyEntry: 'mcpHost.server.copyEntry',
  showCapabilities: 'mcpHost.server.showCapabilities',
  details: 'mcpHost.server.details',
  diagnose: 'mcpHost.server.diagnose',
  clearHistory: 'mcpHost.history.clear',
  showHistory: 'mcpHost.history.show',
  /** The Testing view's "Save Call as Test…" (panels/savedTestsController.ts). */
  saveAsTest: 'mcpHost.history.saveAsTest',
} as const;

/** The Tasks group's commands (panels/tasks.ts). */
export const TaskCommands = {
  cancel: 'mcpHost.task.cancel',
  open: 'mcpHost.task.open',
  refresh: 'mcpHost.tasks.refresh',
} as const;

/** @mcp's id (package.json's chatParticipants) and commands (chat/chatParticipant.ts). */
export const CHAT_PARTICIPANT_ID = 'mcpHost.mcp';
export const ChatCommands = {
  answerApproval: 'mcpHost.chat.answerApproval',
  openAppView: 'mcpHost.chat.openAppView',
  toggleForModels: 'mcpHost.chat.toggleForModels',
  clearPins: 'mcpHost.chat.clearPins',
  addToChat: 'mcpHost.resource.addToChat',
} as const;

/** The timeline's commands (timeline/timelineFeed.ts). */
export const TimelineCommands = {
  open: 'mcpHost.timeline.open',
  /** The view's title bar: every server, whatever row is selected (VS Code passes the focused row to title-bar commands). */
  openAll: 'mcpHost.timeline.openAll',
  openRecording: 'mcpHost.timeline.openRecording',
} as const;

/** The Skills group's commands (skills/skillDocuments.ts). */
export const SkillCommands = { open: 'mcpHost.skills.open', openFile: 'mcpHost.skills.openFile' } as const;

/** Every command of the part activation loads later (panels/useCaseWiring.ts): registered by id at activation. */
export const USE_CASE_PART_COMMANDS: readonly string[] = [UseCaseCommands, TaskCommands, ChatCommands, TimelineCommands, SkillCommands].flatMap((ids) => Object.values(ids));
