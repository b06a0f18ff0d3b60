// A part of the extension whose module loads on first use (`await import()`: esbuild puts it in a
// chunk of its own, not read at activation), created once, and disposed with the extension if it
// was ever created.
import type { Disposable } from '../protocol/disposable';

export class OnDemand<T extends Disposable> implements Disposable {
  private loading: Promise<T> | undefined;
  private created: T | undefined;
  private disposed = false;

  /** `create` imports the part's module and builds it; it runs at most once. */
  constructor(private readonly create: () => Promise<T>) {}

  /** The part once created (undefined before the first `get()` settled): for work only it has. */
  get current(): T | undefined {
    return this.created;
  }

  /** The part, created by the first call. */
  get(): Promise<T> {
    this.loading ??= this.create().then((part) => {
      // Created after the extension was disposed: released at once, like everything else.
      if (this.disposed) part.dispose();
      else this.created = part;
      return part;
    });
    return this.loading;
  }

  dispose(): void {
    this.disposed = true;
    this.created?.dispose();
    this.created = undefined;
  }
}
