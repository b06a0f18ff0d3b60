// A part of the extension whose module loads on first use (`await import()`: esbuild puts it in a
// chunk of its own, not read at activation), created once, and disposed with the extension if it
// was ever created; and the load-once it rests on, which lazyCommands.ts shares.
import type { Disposable } from '../protocol/disposable';
import { errorMessage } from '../protocol/errors';

/**
 * `load`, run by the first call and shared by every call while it runs and after it succeeded. A
 * failure is not kept: the calls waiting get it, and the next call runs `load` again (a chunk that
 * did not load, a part that could not be built, gets another try at the user's next use).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/**
 * {@link loadOnce} for a part whose module is a lazy chunk: a failed load (a chunk missing from an
 * install, a module that throws) rejects with an error that names the part, e.g. "the sign-ins of
 * MCP Host could not be loaded: Cannot find module './chunk-….js'", the cause kept as `cause`.
 */
export function loadPartOnce<T>(part: string, load: () => Promise<T>): () => Promise<T> {
  return loadOnce(async () => {
    try {
      return await load();
    } catch (error) {
      throw new Error(`${part} of MCP Host could not be loaded: ${errorMessage(error)}`, { cause: error });
    }
  });
}

export class OnDemand<T extends Disposable> implements Disposable {
  private created: T | undefined;
  private disposed = false;
  private readonly load = loadOnce(() =>
    this.create().then((part) => {
      // Created after the extension was disposed: released at once, like everything else.
      if (this.disposed) part.dispose();
      else this.created = part;
      return part;
    }),
  );

  /** `create` imports the part's module and builds it; it runs once (again only after it failed). */
  constructor(private readonly create: () => Promise<T>) {}

  /** The part once created (undefined before the first `get()` settled): for work only it has. */
  get current(): T | undefined {
    return this.created;
  }

  /** The part, created by the first call (or, after a failure, by the next). */
  get(): Promise<T> {
    return this.load();
  }

  dispose(): void {
    this.disposed = true;
    this.created?.dispose();
    this.created = undefined;
  }
}
