/**
 * The pointer verbs on one element: a click (single, double, right), a hover, and a script click
 * the model asked for. Each goes through the action pipeline (`perform`), so each is checked as
 * its row in `verbs.ts` says before the mouse moves.
 *
 * @module
 */
import type { Page } from "puppeteer-core";
import { ActionError } from "../../entity/mod.ts";
import type { Did } from "./action_runner.ts";
import type { PointerEnv } from "./actionability.ts";
import { perform, pointPhrase, reached, refusal, type Target, targetName } from "./pipeline.ts";
import { onElement } from "../runtime/page_runtime.ts";
import { closingInput } from "../tabs/self_closing.ts";

/** How a click presses: which button, how many times, or by script (`force`). */
export interface ClickHow {
  double?: boolean;
  button?: "left" | "right";
  /** A script click (`HTMLElement.click()`) without the checks: only when the model asks. */
  force?: boolean;
}

/**
 * Clicks an element as a hand would, once it passed the checks before acting (see `perform`):
 * real mouse events (pointerdown, mousedown, pointerup, mouseup, click; twice for a double click,
 * with `contextmenu` for the right button). A cover that stays, a disabled or moving element is
 * refused with the reason; nothing is clicked by script unless `how.force`.
 *
 * @example
 * ```ts
 * const { did } = await clickElement(page, { el, id: 5 }, env); // "Clicked [5]"
 * ```
 */
export async function clickElement(
  page: Page,
  target: Target,
  env: PointerEnv,
  how: ClickHow = {},
): Promise<Did> {
  const { id } = target;
  if (how.force && target.at) {
    throw new ActionError(
      "invalid_args",
      `Cannot click ${targetName(target)} by script: a script click has no point; ` +
        "leave out force, or the point",
    );
  }
  if (how.force) {
    const way = how.double ? "double" : how.button === "right" ? "right" : "click";
    const r = await onElement(target.el, "clickByScript", way);
    if (r === "gone") {
      throw refusal("click", target, { ok: false, reason: "gone", detail: "", cleared: [] });
    }
    if (r === "disabled") {
      throw new ActionError(
        "no_effect",
        `Cannot click [${id}] by script: it is disabled; observe again, and do first what the page asks`,
      );
    }
    const reason = "the model asked for a script click (force)";
    const what = way === "double"
      ? "Double-clicked"
      : way === "right"
      ? "Right-clicked"
      : "Clicked";
    return {
      did: `${what} [${id}] by script (force: no checks)`,
      fallback: { reason },
      control: true,
    };
  }
  const verb = how.double ? "double-click" : how.button === "right" ? "right-click" : "click";
  return await perform(page, target, verb, env, async (ready) => {
    const button = how.button ?? "left";
    // A button that closes its own tab: the release is not answered.
    const count = how.double ? 2 : 1;
    await closingInput(page, () => page.mouse.click(ready.x, ready.y, { button, count }));
    const after = ready.cleared.length > 0 ? ` (${ready.cleared.join("; ")})` : "";
    const what = verb === "click"
      ? "Clicked"
      : verb === "double-click"
      ? "Double-clicked"
      : "Right-clicked";
    const at = reached(ready, env);
    return {
      did: `${pointPhrase(what, target, at)}${after}`,
      control: true,
      ...(at ? { at } : {}),
    };
  });
}

/**
 * Rests the pointer on an element once it passed the checks (visible, enabled, still, not
 * covered): what opens on hover (a menu, a link that exists only on mouseover) opens.
 *
 * @example
 * ```ts
 * await hoverElement(page, { el, id: 4 }, env); // { did: "Hovered over [4]" }
 * ```
 */
export function hoverElement(page: Page, target: Target, env: PointerEnv): Promise<Did> {
  return perform(page, target, "hover", env, (ready) => {
    const after = ready.cleared.length > 0 ? ` (${ready.cleared.join("; ")})` : "";
    const at = reached(ready, env);
    const verbed = target.at?.screen ? "Hovered" : "Hovered over";
    const did = `${pointPhrase(verbed, target, at)}${after}`;
    return Promise.resolve({ did, ...(at ? { at } : {}) });
  });
}

/**
 * Selects the first occurrence of `text` in an element (a field's value, or any block of text),
 * as a person drags over it, once it passed the checks (it shows, nothing covers it); the keys
 * that follow (Control+B, Delete) act on the selection.
 *
 * @example
 * ```ts
 * await selectText(page, { el, id: 7 }, "world", env); // { did: 'Selected "world" in [7]' }
 * ```
 */
export function selectText(
  page: Page,
  target: Target,
  text: string,
  env: PointerEnv,
): Promise<Did> {
  const who = targetName(target);
  return perform(page, target, "select text in", env, async () => {
    const r = await onElement(target.el, "selectTextIn", text);
    if (!r.ok) {
      throw new ActionError(
        "not_found",
        `No text ${JSON.stringify(text)} in ${who}: it reads ${JSON.stringify(r.reads)}`,
      );
    }
    return { did: `Selected ${JSON.stringify(r.selected)} in ${who}` };
  });
}
