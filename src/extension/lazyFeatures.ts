// The features activation registers without loading them: their commands are registered by id
// (lazyCommands.ts) and their modules, lazy chunks of their own, are read by the first run. What
// the first tree and starting servers need is not here.
import * as vscode from 'vscode';
import { RegistryGalleryCommands, registerLazyCommands } from './lazyCommands';

/** "Browse MCP Registry…" and "Set MCP Registry Token…" (gallery/registryGallery.ts). */
export { RegistryGalleryCommands };

/** The registry gallery: its HTTP client, rows and install plan load with its first command. */
export function registerRegistryGalleryOnDemand(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): vscode.Disposable {
  return registerLazyCommands(
    vscode.commands,
    Object.values(RegistryGalleryCommands),
    () => import('./gallery/registryGallery.js'),
    (gallery) => gallery.registerRegistryGallery(context, log),
  );
}
