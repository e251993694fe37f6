/** The error {@link withDeadline} rejects with when the time runs out. */
export class DeadlineError extends Error {
  constructor(ms: number) {
    super(`Timed out after ${ms} ms`);
    this.name = "DeadlineError";
  }
}

/**
 * The promise's outcome, or a rejection: a {@link DeadlineError} after `ms`, or the signal's
 * reason once it aborts. The promise itself keeps running; its late outcome is ignored.
 *
 * @example
 * ```ts
 * const title = await withDeadline(page.title(), 2000, signal);
 * ```
 */
export function withDeadline<T>(promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(ms)), Math.max(0, ms));
    if (signal) {
      onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
    }
  });
  return Promise.race([promise, late]).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  });
}

/**
 * Waits `ms`; rejects with the signal's reason once it aborts.
 *
 * @example
 * ```ts
 * await pause(50, signal);
 * ```
 */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
