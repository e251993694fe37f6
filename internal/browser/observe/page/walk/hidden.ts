/// <reference lib="dom" />
/**
 * find: matches inside parts of the page that are collapsed or hidden (an accordion's closed
 * section, a closed `<details>`), told with the control that shows them, so the model expands
 * it first instead of concluding the text is not there.
 *
 * @module
 */
import { accessibleName } from "../names.ts";
import { norm } from "../../../shared/text.ts";
import type { HiddenMatch } from "../../../shared/walk_types.ts";
import { idFor } from "./describe.ts";
import type { WalkScope } from "./scope.ts";

/** What expands a collapsed part, placed just before it (an accordion's header). */
const TOGGLE = '[aria-expanded="false"], summary';

/**
 * The matches of the walk's query inside the hidden element `el` (text nodes that contain it),
 * with the local ID and name of the control that shows `el`; null when nothing in it matches or
 * no control shows it (text hidden for good is never reported, not even as a count).
 */
export function hiddenMatch(w: WalkScope, el: Element): HiddenMatch | null {
  if (!norm(el.textContent).includes(w.query)) return null;
  let count = 0;
  const tw = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = tw.nextNode(); n; n = tw.nextNode()) {
    const p = n.parentElement?.localName;
    if (p !== "script" && p !== "style" && norm((n as Text).data).includes(w.query)) count++;
  }
  if (count === 0) return null;
  const toggle = toggleOf(el);
  if (!toggle) return null;
  return { lid: idFor(w, toggle), label: accessibleName(toggle), count };
}

/**
 * The control that shows `el`: one that names it (or an ancestor close by) in `aria-controls`,
 * the `<summary>` of a closed `<details>`, or a toggle just before it (an accordion's header).
 */
function toggleOf(el: Element): Element | null {
  const root = el.getRootNode() as Document | ShadowRoot;
  for (let n: Element | null = el, depth = 0; n && depth < 4; n = n.parentElement, depth++) {
    if (n.id) {
      const t = root.querySelector(`[aria-controls~="${CSS.escape(n.id)}"]`);
      if (t) return t;
    }
    if (n.localName === "details" && !(n as HTMLDetailsElement).open) {
      return n.querySelector(":scope > summary");
    }
    const before = n.previousElementSibling;
    if (before) {
      const t = before.matches(TOGGLE) ? before : before.querySelector(TOGGLE);
      if (t) return t;
    }
  }
  return null;
}
