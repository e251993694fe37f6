/**
 * The one action pipeline every element verb goes through (Playwright's `_retryAction`): the
 * checks the verb's row in `verbs.ts` asks for, retried on the ladder of waits, then the act at
 * the point found; or a refusal that says why (`disabled`, `covered by <div id="overlay">
 * "Subscribe"`, `moving`, `gone`, …), never an act a person could not do. A script click happens
 * only when the model asks for it (`force`), and is reported as such.
 *
 * @module
 */
import type { ElementHandle, Page } from "puppeteer-core";
import { ActionError, type ActionOutcome } from "../../entity/mod.ts";
import { type NotReady, type PointerEnv, type ReadyPoint, untilReady } from "./actionability.ts";
import { type ElementPoint, onElement } from "../runtime/page_runtime.ts";
import { type VerbName, VERBS } from "./verbs.ts";

/** The element a verb acts on: its handle and the ID the model knows it by. */
export interface Target {
  el: ElementHandle<Element>;
  id: number;
  /** How messages name it when the model named it otherwise than by its ID (`"brave"`). */
  name?: string;
  /** The point to act at, when the model gave one: inside it, or the screenshot's. */
  at?: ElementPoint;
}

/**
 * How messages name a target: `[5]`, `[5] at (0.25, 0.5)`, `"brave"`, `at (412, 300)` for a
 * point of the screenshot.
 *
 * @example
 * ```ts
 * targetName({ el, id: 5, at: { x: 0.25, y: 0.5 } }); // "[5] at (0.25, 0.5)"
 * ```
 */
export function targetName(target: Omit<Target, "el">): string {
  const { at } = target;
  if (at?.screen) return target.name ?? `at (${round(at.x)}, ${round(at.y)})`;
  const name = target.name ?? `[${target.id}]`;
  return at ? `${name} at (${round(at.x)}, ${round(at.y)})` : name;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * Checks `target` for `verb` on the ladder of waits, then runs `act` at the point found (main-
 * frame viewport coordinates; the pointer is already there for pointer verbs). Throws an
 * `ActionError` that says why when the element is not ready after the whole ladder.
 *
 * @example
 * ```ts
 * const did = await perform(page, { el, id: 5 }, "hover", env, () => Promise.resolve("Hovered [5]"));
 * ```
 */
export async function perform<T>(
  page: Page,
  target: Target,
  verb: VerbName,
  env: PointerEnv,
  act: (point: ReadyPoint) => Promise<T>,
): Promise<T> {
  const row = VERBS[verb];
  const { el } = target;
  let ready = await untilReady(page, el, env, row.needs, target.at);
  let cleared = ready.cleared;
  if (ready.ok && row.needs.hit === "hit") {
    await page.mouse.move(ready.x, ready.y);
    // Hovering may open what covers it: checked again with the pointer over it.
    if (row.recheck && !await onElement(el, "pointerOver", ready.inFrame.x, ready.inFrame.y)) {
      ready = await untilReady(page, el, env, row.needs, target.at);
      cleared = [...cleared, ...ready.cleared];
      if (ready.ok) await page.mouse.move(ready.x, ready.y);
    }
  }
  if (!ready.ok) throw refusal(verb, target, { ...ready, cleared });
  return await act({ ...ready, cleared });
}

/** Where a point action pressed and what it reached (see `ActionOutcome.at`). */
export type Reached = NonNullable<ActionOutcome["at"]>;

/**
 * What a point action reached, from the point the pipeline found ready: the press point, the
 * element there, and the first of it and its ancestors the model knows by an ID, with where
 * the point is inside that one. Undefined when the verb was given no point.
 */
export function reached(ready: ReadyPoint, env: PointerEnv): Reached | undefined {
  const onto = ready.onto;
  if (!onto) return undefined;
  const at: Reached = { x: Math.round(ready.x), y: Math.round(ready.y), what: onto.what };
  for (const { lid, part } of onto.lids) {
    const id = env.idOf?.(onto.token, lid);
    if (id !== undefined) return { ...at, id, part };
  }
  return at;
}

/**
 * A point action's phrase: `Clicked [5] at (0.25, 0.5) on <td> "7"`, `Clicked at (412, 300) on
 * <button> "Save" of [7]`; the element's own phrase when it was given no point.
 */
export function pointPhrase(verbed: string, target: Omit<Target, "el">, at?: Reached): string {
  const who = targetName(target);
  if (!at) return `${verbed} ${who}`;
  const of = at.id !== undefined && (target.at?.screen || at.id !== target.id)
    ? ` of [${at.id}]`
    : "";
  return `${verbed} ${who} on ${at.what}${of}`;
}

/** What the model is told to do about an element a verb cannot act on, by the reason. */
const FIXES: Readonly<Record<NotReady["reason"], string>> = Object.freeze({
  gone: "observe again",
  disabled: "observe again, and do first what the page asks",
  readonly: "the page fills it itself (a picker or a control beside it may set it)",
  covered: "close it first, or observe again",
  unstable: "wait for it to stop, then try again",
  invisible: "it may show once something else is opened; observe again",
  offscreen: "scroll to it first, or use find",
  hidden: "switch to its tab first",
  outside: "give x, y from 0 to 1 of its size, or pixels from its top-left",
});

/**
 * The typed refusal of `verb` on a target (its ID, or how a message names it), or of a drop
 * onto `place`: `gone` for a detached element, `invalid_args` for a point outside it,
 * `no_effect` for one the browser waited for in vain (disabled, covered, moving, invisible).
 * Nothing was done to it.
 *
 * @example
 * ```ts
 * refusal("click", { id: 5 }, notReady).message; // 'Cannot click [5]: covered by <div id="ad">: close it first, or observe again'
 * ```
 */
export function refusal(
  verb: VerbName,
  target: Omit<Target, "el">,
  r: NotReady,
  place?: Omit<Target, "el">,
): ActionError {
  const who = targetName(target);
  const what = place ? `${who} onto ${targetName(place)}` : who;
  if (r.reason === "gone") {
    const which = place
      ? `The place to drop ${who} onto`
      : target.name || target.at?.screen
      ? `What was ${who}`
      : `Element [${target.id}]`;
    return new ActionError("gone", `${which} is gone: the page changed, observe again`);
  }
  if (r.reason === "outside") {
    return new ActionError("invalid_args", `Cannot ${verb} ${what}: ${r.detail}; ${FIXES.outside}`);
  }
  const why = r.reason === "covered"
    ? `covered by ${r.detail}`
    : r.reason === "unstable"
    ? "it is still moving"
    : r.detail;
  const cleared = r.cleared.length > 0 ? ` (${r.cleared.join("; ")})` : "";
  return new ActionError(
    "no_effect",
    `Cannot ${verb} ${what}: ${why}${cleared}; ${FIXES[r.reason]}`,
  );
}
