/// <reference lib="dom" />
/**
 * Operations: how a person operates an element where a plain click is not all (drags it,
 * double-clicks it, right-clicks it, or only points at it), told by the listeners page scripts
 * gave it (`listeners.ts`), its `draggable` attribute and the cursor it sets itself. Each sign is
 * a row of {@link OPERATIONS} with its reason; {@link operability} is the one function the walk
 * asks. The view writes the marks as states: `[7] <div> {DRAGGABLE} Write report`.
 *
 * An element only these signs make a control is listed when it is a thing, not a region: it is
 * not the page (`<body>`, a box as big as the screen), its text fits a label (a container's
 * paragraphs stay page text), a hover alone lists it only outside another control, and
 * once walked it has a name or is as small as a knob ({@link provenControl}). A page-wide
 * delegate (a listener on the document) marks nothing: only the element a listener is on counts.
 *
 * @module
 */
import { clean } from "../../shared/text.ts";
import { attributeSigns, SIGN } from "./listeners.ts";
import { interactive } from "../core/roles.ts";
import { delegatesAll, itemParts } from "./delegates.ts";
import { optionElements } from "../core/options.ts";
import { resizable } from "../core/resize_grip.ts";

/** How an element is operated where a plain click is not all: a state the view writes. */
export type OperatingMark = "DRAGGABLE" | "DOUBLE-CLICK" | "RIGHT-CLICK" | "HOVER" | "RESIZABLE";

/** A sign that an element is operated, and how. */
interface Operation {
  sign: string;
  /** The mark the view writes; null: a click does it. */
  mark: OperatingMark | null;
  /**
   * `signs`: its listeners' bits ({@link SIGN}); `own`: the cursor it sets (not inherits), or "";
   * `s`: its style.
   */
  test: (el: Element, signs: number, own: string, s: CSSStyleDeclaration) => boolean;
  /** The sign alone lists an element only outside any listed control (that control is operated). */
  outside?: boolean;
  reason: string;
}

/** Cursors that say a border or a corner is dragged. */
const RESIZE = new Set([
  "col-resize",
  "row-resize",
  "ew-resize",
  "ns-resize",
  "nwse-resize",
  "nesw-resize",
  "n-resize",
  "e-resize",
  "s-resize",
  "w-resize",
  "ne-resize",
  "nw-resize",
  "se-resize",
  "sw-resize",
]);
/** Class tokens of drag-and-drop libraries and of the pages that use them. */
const DRAG_CLASS =
  /(^|\s)(ui-(sortable|draggable)(-handle)?|draggable|drag-?handle|dnd-\w+|sortable-(item|handle|list))(\s|$)/i;
/** Cursors that say the element is held and moved. */
const GRAB = new Set(["grab", "-webkit-grab", "move"]);

/** The signs, in the order their marks are written. */
export const OPERATIONS: readonly Operation[] = [
  {
    sign: "draggable=true",
    mark: "DRAGGABLE",
    test: (el) => el.getAttribute("draggable") === "true",
    reason: "HTML5 drag and drop: a kanban card, a sortable list's item",
  },
  {
    sign: "a dragstart listener",
    mark: "DRAGGABLE",
    test: (_, signs) => (signs & SIGN.drag) !== 0,
    reason: "a script starts a drag from it (and may set draggable later)",
  },
  {
    sign: "cursor grab or move",
    mark: "DRAGGABLE",
    test: (_, __, own) => GRAB.has(own),
    reason: "the page says it is held and moved: a slider's knob, a card, a handle",
  },
  {
    sign: "touch-action none on an element a press acts on",
    mark: "DRAGGABLE",
    test: (_, signs, __, s) => (signs & SIGN.press) !== 0 && s.touchAction === "none",
    reason: "the page takes the pointer's moves for itself instead of scrolling: a sortable " +
      "list, a knob, a drawing area that follows the pointer",
  },
  {
    sign: "a class of a drag library (ui-sortable, ui-draggable, draggable, drag-handle, dnd-…)",
    mark: "DRAGGABLE",
    test: (el) => DRAG_CLASS.test(el.getAttribute("class") ?? ""),
    reason: "the page's own word says it is dragged: jQuery UI's ui-sortable and " +
      "ui-draggable, a dnd item",
  },
  {
    sign: "a resize cursor (col-resize, ew-resize, nwse-resize, se-resize, …)",
    mark: "DRAGGABLE",
    test: (_, __, own) => RESIZE.has(own),
    reason: "a border or a corner dragged to resize a column, a row, a pane or a box",
  },
  {
    sign: "CSS resize other than none (a box that clips its content)",
    mark: "RESIZABLE",
    test: (el, _, __, s) => resizable(el, s) !== "",
    reason: "the browser draws a grip at its bottom-right corner: a text area, a resizable " +
      "panel; the view shows its size, and a drag by a distance drags the grip",
  },
  {
    sign: "cursor cell",
    mark: null,
    test: (_, __, own) => own === "cell",
    reason: "a spreadsheet's cell: a click selects it",
  },
  {
    sign: "a dblclick listener",
    mark: "DOUBLE-CLICK",
    test: (_, signs) => (signs & SIGN.dblclick) !== 0,
    reason: "a calendar's slot, a cell edited after a double click",
  },
  {
    sign: "a contextmenu listener",
    mark: "RIGHT-CLICK",
    test: (_, signs) => (signs & SIGN.contextmenu) !== 0,
    reason: "it opens a menu of its own",
  },
  {
    sign: "a pointerdown, mousedown, pointerup or mouseup listener",
    mark: null,
    test: (_, signs) => (signs & SIGN.press) !== 0,
    reason: "a press acts like a click: a knob, a custom button",
  },
  {
    sign: "a mouseenter or mouseover listener",
    mark: "HOVER",
    test: (_, signs) => (signs & SIGN.hover) !== 0,
    outside: true,
    reason: "pointing at it acts: a menu that opens, a link made on hover (the mark only when " +
      "nothing else operates it; a link that also reacts to the pointer is clicked)",
  },
];

/** Cursors a row reads: any other own cursor is no sign. */
const CURSORS = new Set([...GRAB, ...RESIZE, "cell"]);

/** Sides no longer than this make an unnamed element a knob, a handle or a grip. */
const KNOB_PX = 48;

/** How the walk lists an element: {@link interactive}'s kind, its marks, and how it was found. */
export interface Operability {
  /** 2: natively or by role; 1: by heuristics or the signs above; 0: not a control. */
  kind: number;
  marks: readonly OperatingMark[];
  /** Listed by the signs above alone: kept only when {@link provenControl} says so. */
  bySign: boolean;
  /**
   * The children a person points at when a listener of the element acts on them all
   * (`delegates.ts`): each is listed as a control, with the element's marks.
   */
  parts?: Element[];
  /** A root that delegates every event (`delegatesAll`): not listed; the boxes inside it are. */
  root?: boolean;
}

const NONE: Operability = { kind: 0, marks: [], bySign: false };
const ROOT: Operability = { ...NONE, root: true };
const PLAIN: Operability[] = [NONE, { ...NONE, kind: 1 }, { ...NONE, kind: 2 }];

/**
 * Whether and how `el` is a control. `parentCursor`: its parent's cursor; `listened`: the signs
 * of the listeners scripts gave it (its inline handlers are read here); `inControl`: it is inside
 * a listed control; `maxText`: the longest label.
 */
export function operability(
  el: Element,
  s: CSSStyleDeclaration,
  parentCursor: string,
  listened: number,
  inControl: boolean,
  maxText: number,
): Operability {
  const signs = listened | attributeSigns(el);
  const cursor = s.cursor;
  const kind = interactive(el, s, parentCursor === "pointer", (signs & SIGN.click) !== 0, cursor);
  const own = cursor !== parentCursor && CURSORS.has(cursor) ? cursor : "";
  const cls = el.getAttribute("class");
  const plain = !(signs & ~SIGN.click) && !own && !el.hasAttribute("draggable") &&
    !(cls && DRAG_CLASS.test(cls)) && s.resize === "none";
  if (plain) {
    // A box of options clicked by one listener is a dropdown (`options.ts`), listed as one.
    const clicked = kind === 1 && ((signs & SIGN.click) !== 0 || el.hasAttribute("onclick"));
    const parts = clicked && !optionElements(el) ? itemParts(el, maxText) : null;
    return parts ? { kind, marks: [], bySign: false, parts } : PLAIN[kind]!;
  }
  // A page-wide delegate (the body's listeners) marks nothing, as the document's do not.
  const page = el.localName === "body" || el.localName === "html";
  if (kind < 2 && !page && delegatesAll(signs)) return ROOT;
  const marks: OperatingMark[] = [];
  let rows = 0, lists = false;
  for (const op of OPERATIONS) {
    if (!op.test(el, signs, own, s)) continue;
    rows++;
    if (op.mark && !marks.includes(op.mark)) marks.push(op.mark);
    if (!op.outside || !inControl) lists = true;
  }
  if (marks.includes("HOVER") && (kind || rows > 1)) marks.splice(marks.indexOf("HOVER"), 1);
  // A listener that acts on the children (not only the pointer's arrival), or a sign that they
  // are dragged (the container's cursor, a drag library's class): they are the controls.
  const operates = (signs & ~SIGN.hover) !== 0 || marks.includes("DRAGGABLE");
  const parts = kind < 2 && operates ? itemParts(el, maxText) : null;
  if (kind) return parts ? { kind, marks, bySign: false, parts } : { kind, marks, bySign: false };
  if (!lists || page) return NONE;
  if (parts) return { kind: 1, marks, bySign: false, parts };
  const text = el.textContent ?? "";
  if (text.length > maxText && clean(text).length > maxText) return NONE;
  return { kind: 1, marks, bySign: true };
}

/**
 * Whether a control listed by signs alone stays listed once walked: it has a name (text, a
 * label, an icon's name) or is as small as a knob.
 */
export function provenControl(el: Element, named: boolean): boolean {
  if (named) return true;
  const r = el.getBoundingClientRect();
  return r.width <= KNOB_PX && r.height <= KNOB_PX;
}

/** Marks a wrapped control takes from its wrapper (it is clicked, so never `HOVER`). */
const HANDED = new Set<string>(["DRAGGABLE", "DOUBLE-CLICK", "RIGHT-CLICK"]);

/**
 * Gives `to` the marks of `from`, a wrapper dropped for the one control it wraps (a draggable
 * `<li>` around a link: dragging the link drags the item).
 */
export function handMarks(from: { states: string[] }, to: { states: string[] }): void {
  for (const m of from.states) if (HANDED.has(m) && !to.states.includes(m)) to.states.push(m);
}
