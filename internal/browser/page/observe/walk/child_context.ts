/// <reference lib="dom" />
/**
 * The context a walked element gives its children (`walker.ts`): the clip it sets, the scroll
 * panel it is, the block, cell and heading its text belongs to, the control its text names and
 * the background drawn behind it.
 *
 * @module
 */
import { clipTo, rgba } from "../paint.ts";
import type { Scroller } from "../../../shared/walk_types.ts";
import { idFor } from "./describe.ts";
import { nestedList, scrollerName } from "./parts.ts";
import { noteScroller } from "../../core/reads.ts";
import type { Ctl, Ctx, WalkScope } from "./scope.ts";

/**
 * The clip `el` sets for its children and the scroll panel they are in: `el` itself when it
 * scrolls (pushed on `scrollers`), none when it only clips. Whole-page walks do not clip to
 * scroll panels: all of each is walked.
 */
export function clipOf(
  w: WalkScope,
  el: Element,
  s: CSSStyleDeclaration,
  r: DOMRect | null,
  own: Ctx,
  scrollers: Scroller[],
): { clip: Ctx["clip"]; scroller: number } {
  let clip = own.clip;
  let scroller = own.scroller;
  const overflowX = s.overflowX, overflowY = s.overflowY;
  if ((overflowX !== "visible" || overflowY !== "visible") && r && r.width > 0 && r.height > 0) {
    noteScroller(el); // scripts scroll it without a mutation
    const tag = el.localName;
    const scrollable = /auto|scroll/.test(overflowX + overflowY) &&
      (el.scrollHeight > el.clientHeight + 4 || el.scrollWidth > el.clientWidth + 4) &&
      tag !== "body" && tag !== "html";
    if (!(scrollable && w.pageScope)) {
      clip = clipTo(clip, r, overflowX, overflowY);
      if (scrollable) {
        scroller = scrollers.length;
        scrollers.push({
          name: scrollerName(el),
          total: 0,
          above: 0,
          below: 0,
          lid: idFor(w, el),
        });
      } else scroller = -1;
    }
  }
  return { clip, scroller };
}

/**
 * The context of `el`'s children: `own` is the context `el` got, `listed` says `el` is its
 * control, `labelSink` takes the text of a `<label>` that names a control elsewhere; `rowWhole`
 * (read) keeps the blocks inside a table cell in their row's run, so a row reads as one line.
 */
export function childContext(
  el: Element,
  s: CSSStyleDeclaration,
  own: Ctx,
  listed: boolean,
  panel: { clip: Ctx["clip"]; scroller: number },
  labelSink: Ctl,
  rowWhole = false,
): Ctx {
  const tag = el.localName;
  const display = s.display;
  const inline = isInline(display) ||
    (rowWhole && own.cell !== null && !display.startsWith("table"));
  const cell = display === "table-cell";
  let heading = own.heading;
  const hm = /^h([1-6])$/.exec(tag);
  if (hm) heading = Number(hm[1]);
  else if (el.getAttribute("role") === "heading") {
    heading = Number(el.getAttribute("aria-level")) || 2;
  }
  const child: Ctx = {
    block: inline || cell ? own.block : el,
    cell: cell ? el : own.cell,
    heading: inline || cell ? own.heading : heading,
    nest: own.nest + (nestedList(el) ? 1 : 0),
    control: tag === "label" && (el as HTMLLabelElement).control && !listed
      ? labelSink
      : own.control,
    owner: listed ? own.control : own.owner,
    clip: panel.clip,
    posClip: s.position === "static" ? own.posClip : panel.clip,
    scroller: panel.scroller,
    bg: own.bg,
    cursor: s.cursor,
    where: own.where,
    hidden: s.visibility !== "visible",
  };
  if (own.delegated) child.delegated = true;
  if (s.backgroundImage !== "none") child.bg = null;
  else {
    const bg = rgba(s.backgroundColor);
    if (bg && bg[3] > 0.5) child.bg = bg;
  }
  return child;
}

/** A display that keeps an element's text in its parent's line. */
export function isInline(display: string): boolean {
  return display === "contents" || display.startsWith("inline") || display === "ruby";
}

/** The control that takes the text of a `<label>` naming a control elsewhere: it is dropped. */
export function labelSink(): Ctl {
  return {
    item: {
      kind: "el",
      lid: 0,
      tag: "label",
      role: "",
      attrs: [],
      states: [],
      label: "",
      where: 0,
      y: 0,
    },
    el: document.documentElement,
    buf: "",
    sr: "",
    kind: 2,
    index: -1,
    inner: 0,
    last: null,
  };
}
