/**
 * Settles with `promise`, or rejects with `cancelled()` as soon as `signal` aborts. After an
 * abort the promise's own outcome is ignored (and its rejection handled, so it is never reported
 * as unhandled); the listener is removed once either side settles.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal, cancelled: () => Error): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(cancelled());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
