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
import { ActionError } from "../../entity/mod.ts";
import { type NotReady, type PointerEnv, type ReadyPoint, untilReady } from "./actionability.ts";
import { onElement } from "../runtime/page_runtime.ts";
import { type VerbName, VERBS } from "./verbs.ts";

/** The element a verb acts on: its handle and the ID the model knows it by. */
export interface Target {
  el: ElementHandle<Element>;
  id: number;
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
  const { el, id } = target;
  let ready = await untilReady(page, el, env, row.needs);
  let cleared = ready.cleared;
  if (ready.ok && row.needs.hit === "hit") {
    await page.mouse.move(ready.x, ready.y);
    // Hovering may open what covers it: checked again with the pointer over it.
    if (row.recheck && !await onElement(el, "pointerOver", ready.inFrame.x, ready.inFrame.y)) {
      ready = await untilReady(page, el, env, row.needs);
      cleared = [...cleared, ...ready.cleared];
      if (ready.ok) await page.mouse.move(ready.x, ready.y);
    }
  }
  if (!ready.ok) throw refusal(verb, id, { ...ready, cleared });
  return await act({ ...ready, cleared });
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
});

/**
 * The typed refusal of `verb` on `[id]`, or of its drop `onto` a place (named as the model
 * named it): `gone` for a detached element, `no_effect` for one the browser waited for in vain
 * (disabled, covered, moving, invisible). Nothing was done to it.
 *
 * @example
 * ```ts
 * refusal("click", 5, notReady).message; // 'Cannot click [5]: covered by <div id="ad">: close it first, or observe again'
 * ```
 */
export function refusal(verb: VerbName, id: number, r: NotReady, onto?: string): ActionError {
  if (r.reason === "gone") {
    const which = onto ? `The place to drop [${id}] onto` : `Element [${id}]`;
    return new ActionError("gone", `${which} is gone: the page changed, observe again`);
  }
  const what = r.reason === "covered"
    ? `covered by ${r.detail}`
    : r.reason === "unstable"
    ? "it is still moving"
    : r.detail;
  const cleared = r.cleared.length > 0 ? ` (${r.cleared.join("; ")})` : "";
  const who = onto ? `[${id}] onto ${onto}` : `[${id}]`;
  return new ActionError(
    "no_effect",
    `Cannot ${verb} ${who}: ${what}${cleared}; ${FIXES[r.reason]}`,
  );
}
