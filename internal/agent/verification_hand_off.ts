import type { VerificationWall } from "../entity/mod.ts";
import { type BrowserPort, renderWall } from "../tools/mod.ts";

/** Where the checks are looked for: the run's browser (the run masks what it finds). */
type WallSource = Pick<BrowserPort, "verification">;

/** Where a person said they solved a check: at the terminal, or in the live view's page. */
export type SolvedBy = "terminal" | "page";

/** What a person said after a hand-off: where they said it is solved, or nobody answered. */
export type HandOffAnswer = SolvedBy | "unanswered";

/**
 * Hands a human-verification check to a person (in the browser window, or the live view) and
 * resolves once they say it is solved, or that nobody will (a live view's `--ui-timeout`).
 */
export type HandOff = (wall: VerificationWall, signal: AbortSignal) => Promise<HandOffAnswer>;

/**
 * One hand-off of a check to a person, as traces and reports record it: what check, when, how
 * long until the person answered, and what came of it — `passed` (the page no longer shows
 * it), `still_there` (they said solved, it was not), `unanswered` (the run ends), `stopped` (the
 * run was stopped meanwhile).
 */
export interface HandOffRecord {
  wall: VerificationWall;
  /** When it was handed over (ISO time). */
  started: string;
  ms: number;
  outcome: "passed" | "still_there" | "unanswered" | "stopped";
  by?: SolvedBy;
}

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
  /** Told once a check is found, before anything else is said or asked. */
  onFound?: (wall: VerificationWall) => void;
  /** Told of each hand-off once it is over (see {@link HandOffRecord}). */
  onHandOff?: (record: HandOffRecord) => void;
  /** How long a check that may pass by itself is given (default 5 s). */
  graceMs?: number;
}): Promise<VerificationWall | undefined> {
  let wall = await gone(o, await look(o));
  if (!wall) return undefined;
  o.onFound?.(wall);
  o.onNotice?.(`${renderWall(wall)} (${wall.where})`);
  while (o.handOff) {
    const { answer, still } = await handOnce(o, wall, o.handOff);
    if (answer === "unanswered") return wall;
    if (!still) {
      o.onNotice?.("the check is passed: the run goes on");
      return undefined;
    }
    wall = still;
    o.onNotice?.(`still there: ${renderWall(wall)}`);
  }
  return wall;
}

/**
 * Hands `wall` to a person once and, once they say it is solved, looks again: the check still
 * there, if it is. What came of it is told to `onHandOff`.
 */
async function handOnce(
  o: Parameters<typeof passWall>[0],
  wall: VerificationWall,
  handOff: HandOff,
): Promise<{ answer: HandOffAnswer; still?: VerificationWall }> {
  const started = new Date().toISOString();
  const t0 = performance.now();
  let ms: number | undefined;
  let by: SolvedBy | undefined;
  const record = (outcome: HandOffRecord["outcome"]) =>
    o.onHandOff?.({
      wall,
      started,
      ms: ms ?? Math.round(performance.now() - t0),
      outcome,
      ...(by ? { by } : {}),
    });
  try {
    const answer = await handOff(wall, o.signal);
    ms = Math.round(performance.now() - t0);
    if (answer === "unanswered") {
      record("unanswered");
      return { answer };
    }
    by = answer;
    const still = await gone(o, await look(o));
    record(still ? "still_there" : "passed");
    return { answer, ...(still ? { still } : {}) };
  } catch (error) {
    record("stopped");
    throw error;
  }
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
