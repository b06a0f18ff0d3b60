// The features activation registers without loading them: their commands are registered by id
// (lazyCommands.ts) and their modules, lazy chunks of their own, are read by the first run. What
// the first tree and starting servers need is not here.
import * as vscode from 'vscode';
import { CHAT_PARTICIPANT_ID, RegistryGalleryCommands, USE_CASE_PART_COMMANDS, registerLazyCommands } from './lazyCommands';
import { PANEL_VIEW_TYPES } from './panels/panelTabs';
import type { UseCaseWiringHost, WiredUseCases } from './panels/useCaseWiring';
import type { GallerySecrets } from './gallery/registryAuth';

/** "Browse MCP Registry…" and "Set MCP Registry Token…" (gallery/registryGallery.ts). */
export { RegistryGalleryCommands };

/** The registry gallery: its HTTP client, rows and install plan load with its first command. */
export function registerRegistryGalleryOnDemand(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, secrets: GallerySecrets): vscode.Disposable {
  return registerLazyCommands(
    vscode.commands,
    Object.values(RegistryGalleryCommands),
    () => import('./gallery/registryGallery.js'),
    (gallery) => gallery.registerRegistryGallery(context, log, secrets),
  );
}

/** The use cases, registered at activation and loaded later (`load()`). */
export interface UseCasesOnDemand extends vscode.Disposable {
  /** Loads and wires them (once); resolves when their commands and tree marks are in place. */
  load(): Promise<void>;
}

/**
 * The use cases and what follows them (panels/useCaseWiring.ts): their commands by id, the
 * serializers of the panels a reload restores and @mcp are registered now (VS Code asks for
 * these at activation); the first of them to run, or `load()`, reads the part.
 */
export function registerUseCasesOnDemand(host: Omit<UseCaseWiringHost, 'participant'>): UseCasesOnDemand {
  let wired: WiredUseCases | undefined;
  const waiting = async (...args: Parameters<vscode.ChatRequestHandler>) => {
    await commands.load();
    // Wiring gave @mcp the use cases' handler in place of this one.
    if (participant.requestHandler === waiting) throw new Error('@mcp has no handler: the use cases did not load');
    return participant.requestHandler(...args);
  };
  const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, waiting);
  participant.iconPath = new vscode.ThemeIcon('plug');
  const commands = registerLazyCommands(
    vscode.commands,
    USE_CASE_PART_COMMANDS,
    () => import('./panels/useCaseWiring.js'),
    (part) => (wired = part.wireUseCases({ ...host, participant })),
  );
  const serializers = Object.values(PANEL_VIEW_TYPES).map((viewType) =>
    vscode.window.registerWebviewPanelSerializer(viewType, {
      deserializeWebviewPanel: async (panel, state) => {
        await commands.load();
        // Loaded after the extension was disposed: nothing to show it in.
        if (!wired) return panel.dispose();
        return wired.restorePanel(viewType, panel, state);
      },
    }),
  );
  const all = vscode.Disposable.from(commands, ...serializers, participant);
  return { load: () => commands.load(), dispose: () => all.dispose() };
}
