import type { VerificationWall } from "../entity/mod.ts";
import { type BrowserPort, renderWall } from "../tools/mod.ts";

/** Where the checks are looked for: the run's browser (the run masks what it finds). */
type WallSource = Pick<BrowserPort, "verification">;

/** What a person said after a hand-off: they solved it, or nobody answered (the run ends). */
export type HandOffAnswer = "solved" | "unanswered";

/**
 * Hands a human-verification check to a person (in the browser window, or the live view) and
 * resolves once they say it is solved, or that nobody will (a live view's `--ui-timeout`).
 */
export type HandOff = (wall: VerificationWall, signal: AbortSignal) => Promise<HandOffAnswer>;

/** How long a check that often passes by itself (Cloudflare's) is given, and looked at. */
const GRACE_MS = 5000;
const LOOK_EVERY_MS = 500;

/**
 * Before the model sees the page: when a human-verification check blocks it, the model is not
 * shown it (it would click at it) and nothing tries to solve or bypass it. A check that often
 * passes by itself (Cloudflare's interstitial and Turnstile) is given a few seconds; then it is
 * handed to a person, again while it is still there once they say it is solved. Returns the check
 * when nobody can (no hand-off, or no answer): the run ends `needs_user`; else undefined, and the
 * run goes on with a fresh look at the page. `signal` ends it at once, even while a look at a
 * page that does not answer is under way.
 *
 * @example
 * ```ts
 * const wall = await passWall({ browser, signal, handOff });
 * if (wall) return end("needs_user", `${renderWall(wall)}; a person must solve it.`);
 * ```
 */
export async function passWall(o: {
  browser: WallSource;
  signal: AbortSignal;
  handOff?: HandOff;
  onNotice?: (line: string) => void;
  /** How long a check that may pass by itself is given (default 5 s). */
  graceMs?: number;
}): Promise<VerificationWall | undefined> {
  let wall = await gone(o, await look(o));
  if (!wall) return undefined;
  o.onNotice?.(`${renderWall(wall)} (${wall.where})`);
  while (o.handOff) {
    if (await o.handOff(wall, o.signal) !== "solved") return wall;
    const still = await gone(o, await look(o));
    if (!still) {
      o.onNotice?.("the check is passed: the run goes on");
      return undefined;
    }
    wall = still;
    o.onNotice?.(`still there: ${renderWall(wall)}`);
  }
  return wall;
}

/** The check, unless it is one that passes by itself and does within the grace time. */
async function gone(
  o: { browser: WallSource; signal: AbortSignal; graceMs?: number },
  wall: VerificationWall | undefined,
): Promise<VerificationWall | undefined> {
  if (!wall?.passes) return wall;
  const end = performance.now() + (o.graceMs ?? GRACE_MS);
  while (performance.now() < end) {
    await pause(Math.min(LOOK_EVERY_MS, end - performance.now()), o.signal);
    const now = await look(o);
    if (!now) return undefined;
    wall = now;
    if (!now.passes) return now;
  }
  return wall;
}

/** The check that blocks the page now, if any; rejects as soon as `signal` aborts. */
function look(
  o: { browser: WallSource; signal: AbortSignal },
): Promise<VerificationWall | undefined> {
  const { signal } = o;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    o.browser.verification().then(resolve, reject).finally(() =>
      signal.removeEventListener("abort", stop)
    );
  });
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
    };
    const stop = () => {
      done();
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, Math.max(0, ms));
    signal.addEventListener("abort", stop, { once: true });
  });
}
