/** Something that holds a resource and can release it. Calling `dispose()` twice is harmless. */
export interface Disposable {
  dispose(): void;
}

export namespace Disposable {
  /** Wraps a function as a Disposable that runs it at most once. */
  export function from(fn: () => void): Disposable {
    let done = false;
    return {
      dispose() {
        if (!done) {
          done = true;
          fn();
        }
      },
    };
  }
  export const None: Disposable = Object.freeze({ dispose() {} });
}

/** Owns a set of disposables and releases them together, newest first. */
export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  private disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const items = this.items.reverse();
    this.items = [];
    for (const item of items) {
      try {
        item.dispose();
      } catch {
        // One failing disposal must not leak the rest.
      }
    }
  }
}
