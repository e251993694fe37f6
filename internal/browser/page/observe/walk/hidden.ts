/// <reference lib="dom" />
/**
 * find: matches inside parts of the page that are collapsed or hidden (an accordion's closed
 * section, a closed `<details>`, a closed submenu, a collapsed tree node), told with the control
 * that shows them, so the model opens it first instead of concluding the text is not there.
 *
 * @module
 */
import { accessibleName } from "../../core/names.ts";
import { SIGN } from "../listeners.ts";
import { interactive } from "../../core/roles.ts";
import { norm } from "../../../shared/text.ts";
import type { HiddenMatch } from "../../../shared/walk_types.ts";
import { idFor } from "./describe.ts";
import type { WalkScope } from "./scope.ts";

/** What expands a collapsed part, placed just before it (an accordion's header). */
const TOGGLE = '[aria-expanded="false"], summary';
/** Items whose own control opens the list inside them (a tree node, a menu entry). */
const ITEM = "li, [role=treeitem], [role=menuitem]";
/** Controls that submit or take input: they never open what follows them. */
const NOT_OPENER = "input, select, textarea, button[type=submit], [type=submit]";
/** Levels climbed from the hidden part to find what opens it. */
const LEVELS = 4;

/**
 * The ways a hidden part says what opens it, asked in order at the part and each of its
 * ancestors (up to {@link LEVELS}): each row returns the control, or null.
 */
const OPENERS: readonly {
  reason: string;
  opener: (n: Element, w: WalkScope, root: Document | ShadowRoot) => Element | null;
}[] = [
  {
    reason: "ARIA: a control names the part it expands",
    opener: (n, _w, root) =>
      n.id ? root.querySelector(`[aria-controls~="${CSS.escape(n.id)}"]`) : null,
  },
  {
    reason: "Bootstrap and similar collapse toggles name their target by selector",
    opener: (n, _w, root) => {
      if (!n.id) return null;
      const id = CSS.escape(n.id);
      return root.querySelector(
        `[data-target="#${id}"], [data-bs-target="#${id}"], a[href="#${id}"]`,
      );
    },
  },
  {
    reason: "a closed <details> opens by its <summary>",
    opener: (n) =>
      n.localName === "details" && !(n as HTMLDetailsElement).open
        ? n.querySelector(":scope > summary")
        : null,
  },
  {
    reason: "a header just before it says it expands (aria-expanded=false, <summary>)",
    opener: (n) => {
      const before = n.previousElementSibling;
      if (!before) return null;
      return before.matches(TOGGLE) ? before : before.querySelector(TOGGLE);
    },
  },
  {
    reason: "a control just before it opens it: a submenu's parent link, a tree node's toggle, " +
      "an accordion's clickable header",
    opener: (n, w) => {
      const before = n.previousElementSibling;
      return before && opens(before, w) ? before : null;
    },
  },
  {
    reason: "a tree node or menu entry that is itself the control opens the list inside it",
    opener: (n, w) => {
      const item = n.parentElement;
      return item?.matches(ITEM) && opens(item, w) ? item : null;
    },
  },
];

/** Whether `el` is a control that can open something (shown, not a field or submit button). */
function opens(el: Element, w: WalkScope): boolean {
  if (el.matches(NOT_OPENER)) return false;
  const s = getComputedStyle(el);
  if (s.display === "none" || s.visibility !== "visible") return false;
  const signs = w.listened.get(el) ?? 0;
  return interactive(el, s, false, (signs & (SIGN.click | SIGN.press)) !== 0) > 0;
}

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
  const toggle = toggleOf(el, w);
  if (!toggle) return null;
  return { lid: idFor(w, toggle), label: accessibleName(toggle), count };
}

/** The control that shows `el`, by the first of {@link OPENERS} that finds one. */
function toggleOf(el: Element, w: WalkScope): Element | null {
  const root = el.getRootNode() as Document | ShadowRoot;
  for (let n: Element | null = el, depth = 0; n && depth < LEVELS; n = n.parentElement, depth++) {
    for (const { opener } of OPENERS) {
      const t = opener(n, w, root);
      if (t) return t;
    }
  }
  return null;
}
