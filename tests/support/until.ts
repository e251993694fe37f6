/**
 * Waits until `get` returns something truthy and returns it; a hang guard of 60 s, not a timing
 * check.
 *
 * @example
 * ```ts
 * const url = await until("the live view URL", () => /live view: (\S+)/.exec(stderr)?.[1]);
 * ```
 */
export async function until<T>(
  what: string,
  get: () => Promise<T | undefined | false> | T | undefined | false,
): Promise<T> {
  const end = Date.now() + 60_000;
  while (true) {
    const value = await get();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
