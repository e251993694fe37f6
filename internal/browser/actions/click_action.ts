import type { ElementHandle, Page } from "puppeteer-core";
import { ActionError } from "../../entity/mod.ts";
import type { Did } from "./action_runner.ts";
import { type NotReady, type PointerEnv, untilReady } from "./actionability.ts";
import { onElement } from "../runtime/page_runtime.ts";
import { closingInput } from "../tabs/self_closing.ts";

/**
 * Clicks an element as a hand would, after the checks before acting (see {@link untilReady}):
 * enabled, visible, still, in view, and the click lands on it (clearing a cookie banner or
 * overlay that covers it), waiting on a short ladder while it is not; then real mouse events
 * (pointerdown, mousedown, pointerup, mouseup, click). Falls back to a script click only when no
 * mouse click can land, and says so; refuses a disabled element. Returns what it did, e.g.
 * `Clicked [5]`, with the fallback's reason as data.
 *
 * @example
 * ```ts
 * const { did } = await clickElement(page, el, 5, { banners, capMs: 5000 }); // "Clicked [5]"
 * ```
 */
export async function clickElement(
  page: Page,
  el: ElementHandle<Element>,
  id: number,
  env: PointerEnv,
): Promise<Did> {
  let ready = await untilReady(page, el, env, false);
  let cleared = ready.cleared;
  if (!ready.ok && ready.reason === "covered" && cleared.length === 0) {
    cleared = [`${ready.detail} covers it and has no button to close it`];
  }
  if (ready.ok) {
    await page.mouse.move(ready.x, ready.y);
    // Hovering may open what covers it: checked again with the pointer over it.
    if (!await onElement(el, "pointerOver", ready.inFrame.x, ready.inFrame.y)) {
      ready = await untilReady(page, el, env, false);
      cleared = [...cleared, ...ready.cleared];
      if (ready.ok) await page.mouse.move(ready.x, ready.y);
    }
  }
  const after = cleared.length > 0 ? ` (${cleared.join("; ")})` : "";
  if (ready.ok) {
    // A button that closes its own tab: the release is not answered.
    await closingInput(page, async () => {
      await page.mouse.down();
      await page.mouse.up();
    });
    return { did: `Clicked [${id}]${after}`, control: true };
  }
  const why = refusal(id, ready);
  await onElement(el, "clickByScript");
  return {
    did: `Clicked [${id}] by script, because a mouse click could not land: ${why}${after}`,
    fallback: { reason: why },
    control: true,
  };
}

/** Why no mouse click could land; throws when the element cannot be clicked at all. */
function refusal(id: number, r: NotReady): string {
  if (r.reason === "gone") {
    throw new ActionError("gone", `Element [${id}] is gone: the page changed, observe again`);
  }
  if (r.reason === "disabled") {
    throw new ActionError(
      "no_effect",
      `Cannot click [${id}]: ${r.detail}; observe again, and do first what the page asks`,
    );
  }
  return r.reason === "covered" ? `${r.detail} covers it` : r.detail;
}
