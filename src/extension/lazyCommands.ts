// Commands whose implementation sits in a lazy chunk (`await import()`, not read at activation):
// their ids are registered at activation, so the palette, menus and keybindings find them at once,
// and the first run loads the module, which registers the real commands in their place; that run
// (and any made while the module loads) then goes to the real command.
import type { Disposable } from '../protocol/disposable';

/** The part of `vscode.commands` this needs (unit tests pass their own). */
export interface CommandRegistry {
  registerCommand(id: string, run: (...args: unknown[]) => unknown): Disposable;
  executeCommand(id: string, ...args: unknown[]): PromiseLike<unknown>;
}

/**
 * Registers `ids` now; the first run of one calls `load` (import the module), then `register`
 * with what it loaded, which registers the real commands under the same ids and returns what to
 * dispose with the extension. The placeholders go just before `register` runs, synchronously, so
 * no id is ever missing.
 */
export function registerLazyCommands<M>(commands: CommandRegistry, ids: readonly string[], load: () => Promise<M>, register: (module: M) => Disposable | readonly Disposable[]): Disposable {
  let placeholders: Disposable[] | undefined;
  let registered: readonly Disposable[] = [];
  let loading: Promise<void> | undefined;
  let disposed = false;
  const loaded = (): Promise<void> =>
    (loading ??= load().then((module) => {
      if (disposed) return;
      for (const p of placeholders ?? []) p.dispose();
      placeholders = undefined;
      const made = register(module);
      registered = Array.isArray(made) ? made : [made as Disposable];
    }, (error: unknown) => {
      // A later run tries again (and shows its own error).
      loading = undefined;
      throw error;
    }));
  placeholders = ids.map((id) =>
    commands.registerCommand(id, async (...args: unknown[]) => {
      await loaded();
      return disposed ? undefined : commands.executeCommand(id, ...args);
    }),
  );
  return {
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
