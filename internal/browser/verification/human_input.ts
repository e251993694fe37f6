import type { Page } from "puppeteer-core";
import type { KeyInput } from "puppeteer-core";
import { inRealm } from "../runtime/page_runtime.ts";
import { isolatedRealm } from "../runtime/realm.ts";

/**
 * What a person does to the page through the live view's picture of it, while the agent waits
 * for them to solve a human-verification check: press or release the mouse button at a point
 * (`x`, `y`: fractions of the viewport's width and height, as read off the picture), press a
 * key (`Enter`, `Backspace`, `Tab`, arrows), or type text. It goes to the page as a person's
 * input does, through the browser's input events: no checks, no settling, nothing reported.
 */
export type HumanInput =
  | { kind: "down" | "up"; x: number; y: number }
  | { kind: "key"; key: string }
  | { kind: "text"; text: string };

/** Keys a person may press through the picture, besides text. */
const KEYS = new Set([
  "Enter",
  "Tab",
  "Backspace",
  "Delete",
  "Escape",
  "Space",
  "ArrowUp",
  "ArrowDown",
  "ArrowLeft",
  "ArrowRight",
  "Home",
  "End",
  "PageUp",
  "PageDown",
]);

/**
 * Sends one person's input to the tab (see {@link HumanInput}); throws a `RangeError` for a
 * point off the picture, a key not in the list, or empty text.
 *
 * @example
 * ```ts
 * await sendHumanInput(page, { kind: "down", x: 0.5, y: 0.25 });
 * await sendHumanInput(page, { kind: "up", x: 0.5, y: 0.25 });
 * ```
 */
export async function sendHumanInput(page: Page, input: HumanInput): Promise<void> {
  switch (input.kind) {
    case "down":
    case "up": {
      const { x, y } = input;
      if (!(x >= 0 && x <= 1 && y >= 0 && y <= 1)) {
        throw new RangeError(`Cannot press at (${x}, ${y}): give fractions from 0 to 1`);
      }
      const size = await inRealm(isolatedRealm(page.mainFrame()), "viewportSize");
      await page.mouse.move(x * size.width, y * size.height);
      if (input.kind === "down") await page.mouse.down();
      else await page.mouse.up();
      return;
    }
    case "key":
      if (!KEYS.has(input.key)) {
        throw new RangeError(
          `Cannot press "${input.key}": use one of ${[...KEYS].join(", ")}, or send text`,
        );
      }
      await page.keyboard.press(input.key as KeyInput);
      return;
    case "text":
      if (!input.text) throw new RangeError("Cannot type empty text");
      await page.keyboard.type(input.text);
      return;
  }
}
