import type { BrowserState, ToolResult } from "../entity/mod.ts";
import { withNote } from "../tools/mod.ts";

/** A picture for the next model request, with the line that says what it shows. */
export interface StepPicture {
  mimeType: string;
  base64: string;
  label: string;
}

/**
 * A picture a tool returned (a module's screenshot), as the next request sends it: with
 * `vision` (the model accepts images) it goes along with that request, and the step's result
 * says so; otherwise the result says why the model does not see it. After a secret was typed no
 * picture goes to the model. The result kept in HISTORY holds no picture.
 *
 * @example
 * ```ts
 * const { result, picture } = takePicture(acted, { step: 3, tool: "chrome_screenshot", vision: true, secretTyped: false });
 * ```
 */
export function takePicture(
  result: ToolResult,
  facts: { step: number; tool: string; vision: boolean; secretTyped: boolean },
): { result: ToolResult; picture?: StepPicture } {
  const { image, ...rest } = result;
  if (!image) return { result };
  if (facts.vision && !facts.secretTyped) {
    return {
      result: withNote(rest, " (its picture is sent with the next request)"),
      picture: {
        ...image,
        label: `The picture ${facts.tool} returned at step ${facts.step}:`,
      },
    };
  }
  const why = facts.secretTyped
    ? "no picture goes to the model once a secret was typed"
    : "this run sends no pictures to the model (--vision is off)";
  return { result: withNote(rest, ` (its picture is not shown to you: ${why})`) };
}

/**
 * The numbered screenshot as the next request sends it (`--vision`), after the line that says
 * how to read it: its size, where the numbers are, and the closer picture when `zoom` names the
 * tool that takes one.
 *
 * @example
 * ```ts
 * viewPicture(state.image, "zoom").label; // "SCREENSHOT of the page now (1280×800 px): …"
 * ```
 */
export function viewPicture(
  image: NonNullable<BrowserState["image"]>,
  zoom?: string,
): StepPicture {
  const g = image.geometry;
  const size = g ? ` (${g.width}×${g.height} px)` : "";
  const closer = zoom ? `; ${zoom} shows a part larger` : "";
  return {
    mimeType: image.mimeType,
    base64: image.base64,
    label: `SCREENSHOT of the page now${size}: each [id] is drawn beside its element, in the ` +
      `colour of its outline; a row of numbers beside a row of elements names them in order${closer}.`,
  };
}
