/// <reference lib="dom" />
/**
 * A box of text that scrolls (terms to read, a log, a chat) has a line of the view with its ID
 * after the text it shows: `[14] <div scrollable> Terms: more below`; a text area whose text
 * goes on says so the same way, `<textarea scrollable="more below">`. The note "more inside scrollable areas" tells of
 * panels whose hidden part holds controls; a box of only text had no line and no ID, so nothing
 * said its text went on, nor what to scroll.
 *
 * @module
 */
import type { ElementItem, Scroller } from "../../../shared/walk_types.ts";
import { whereOf, yOf } from "./scope.ts";
import type { WalkScope } from "./scope_types.ts";

/** Hidden text this many pixels or fewer is no more text. */
const SLACK_PX = 4;

/**
 * The line of scroll box `el` (box `r`, panel `sc` once walked), or null when its hidden part
 * holds controls (the note tells of it) or it shows all its text.
 */
export function scrollBoxItem(
  w: WalkScope,
  el: Element,
  r: DOMRect,
  sc: Scroller,
  where: number,
): ElementItem | null {
  if (sc.above + sc.below > 0) return null;
  const hint = moreText(el);
  if (!hint) return null;
  const role = el.getAttribute("role");
  const named = sc.name !== el.localName && sc.name !== role;
  return {
    kind: "el",
    lid: sc.lid,
    tag: el.localName,
    role: role ?? "",
    attrs: role ? [`role=${role}`, "scrollable"] : ["scrollable"],
    states: [],
    label: named ? `${sc.name}: ${hint}` : hint,
    where: whereOf(w, r, where),
    y: yOf(w, r),
  };
}

/** Where `el`'s text goes on past its box: "more below", "more above", both, or "" (it fits). */
export function moreText(el: Element): string {
  if (el.scrollHeight <= el.clientHeight + SLACK_PX) return "";
  const above = el.scrollTop > SLACK_PX;
  const below = el.scrollHeight - el.clientHeight - el.scrollTop > SLACK_PX;
  return above && below ? "more above and below" : above ? "more above" : below ? "more below" : "";
}
