/// <reference lib="dom" />
/**
 * The isolated world's side of the work recorder (`recorder.ts`, in the page's own world): it
 * says when an action starts and ends, and asks what work of the action is pending. They talk
 * through DOM events named with the random per-run token; where no recorder is installed (a
 * document loaded before it was, `--settle simple`), nobody answers.
 *
 * @module
 */
import { hearBackground } from "../core/activity.ts";
import { docState } from "../core/state.ts";

/**
 * What the recorder says of the action being measured: its work is `"pending"` (a timer or
 * frame due within the reach, a loop's next step, a worker's answer), or it set some off that is
 * done (`"seen"`), or none (`"none"`).
 */
export type ActionWork = "pending" | "seen" | "none";

/** The recorder's answer: the action's work, and the two facts beyond the reach. */
export interface WorkAnswer {
  work: ActionWork;
  /** A step of a loop the action started is due soon (a typewriter's next character). */
  loop: boolean;
  /** A timeout the action set beyond the reach is still to come (long work). */
  long: boolean;
  /** Some of it is due within `SETTLE.lateMs` past the reach (late work). */
  late: boolean;
}

/**
 * Tells this document's recorder that an action starts (`"start"`; a `passive` one only
 * watches, so what the page does meanwhile is its own doing) or ended (`"end"`). Nothing happens
 * where no recorder is installed.
 */
export function tellAction(token: string, phase: "start" | "end", passive = false): void {
  if (!token) return;
  docState().timerToken = token;
  hearBackground(token);
  const what = phase === "end" ? "end" : passive ? "watch" : "start";
  document.dispatchEvent(new Event(`${token}:act/${what}`));
}

/**
 * What this document's recorder says of the action being measured (see {@link WorkAnswer});
 * null where no recorder is installed.
 *
 * @example
 * ```ts
 * if (askWork(token)?.work === "pending") return; // ask again soon
 * ```
 */
export function askWork(token: string): WorkAnswer | null {
  if (!token) return null;
  hearBackground(token);
  let work: ActionWork | null = null;
  let loop = false, long = false, late = false;
  const listeners: [string, () => void][] = [
    ...(["pending", "seen", "none"] as const).map((w): [string, () => void] => [
      `${token}:work/${w}`,
      () => work = w,
    ]),
    [`${token}:work/loop`, () => loop = true],
    [`${token}:work/long`, () => long = true],
    [`${token}:work/late`, () => late = true],
  ];
  for (const [type, fn] of listeners) document.addEventListener(type, fn);
  try {
    document.dispatchEvent(new Event(`${token}:work`));
  } finally {
    for (const [type, fn] of listeners) document.removeEventListener(type, fn);
  }
  return work === null ? null : { work, loop, long, late };
}
