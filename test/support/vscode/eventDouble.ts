// The double's Disposable and EventEmitter (double.ts re-exports them), apart so the other parts
// of the double can use them without importing double.ts.
export class Disposable {
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((d) => d.dispose()));
  }
  private done = false;
  constructor(private readonly onDispose: () => unknown) {}
  dispose(): void {
    if (this.done) return;
    this.done = true;
    this.onDispose();
  }
}

export type Listener<T> = (e: T) => unknown;

export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.add(listener);
    return new Disposable(() => this.listeners.delete(listener));
  };
  fire(data: T): void {
    for (const l of [...this.listeners]) l(data);
  }
  dispose(): void {
    this.listeners.clear();
  }
  /** For tests: how many listen now. */
  get listenerCount(): number {
    return this.listeners.size;
  }
}
