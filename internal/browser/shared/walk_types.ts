/// <reference lib="dom" />
/**
 * Types of the page walk, shared by the runtime (`walk/`) and the Deno side that reads its
 * results (`frame_walk.ts`, `observer.ts`). Only types and plain constants live here.
 *
 * @module
 */

/** A rectangle in the frame's viewport coordinates. */
export interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Options of `walkFrame`. */
export interface WalkOptions {
  mode: "observe" | "find" | "read";
  /** `viewport`: the visible band plus `margin`; `page`: the whole document. */
  scope: "viewport" | "page";
  /** Extra band above and below the visible area, as a share of the viewport height. */
  margin: number;
  /** Longest text run, in characters. */
  maxText: number;
  /** Longest element label, in characters. */
  maxLabel: number;
  /** Longest field value shown, in characters (default `maxLabel`); a longer one is cut. */
  maxValue?: number;
  /** Part of this frame's viewport that is visible in the top page (child frames); null: all. */
  clip: Box | null;
  /** The band to list (visible part plus margin) in a child frame; null: from `clip` and `margin`. */
  band: Box | null;
  /** find: the text to look for (the walker normalises it with `norm`). */
  query?: string;
  /** find: only elements of this role. */
  role?: string;
  /** The token of the click-listener recorder (`listeners.ts`), when pages are recorded. */
  listeners?: string;
  /**
   * observe: reuse what earlier observations gave for subtrees where nothing changed (default);
   * false walks everything (the equivalence test compares both).
   */
  incremental?: boolean;
  /**
   * The result of a walk with the same options that the caller holds: the answer is then the
   * change to it (`FrameWalk.delta`) when the document still keeps it.
   */
  since?: { token: string; id: number };
}

/** Where an item is; bit flags. */
export const WHERE = {
  /** Inside the visible area (not only in the margin band). */
  viewport: 1,
  /** Inside the open modal dialog. */
  dialog: 2,
  /** Inside the form that holds the focus. */
  form: 4,
} as const;

/** An element as the walker lists it. */
export interface ElementItem {
  kind: "el";
  lid: number;
  tag: string;
  role: string;
  attrs: string[];
  states: string[];
  label: string;
  /** A name derived from the icon of a control nothing else names (`icon_names.ts`). */
  icon?: string;
  /** The field's value, exact; only its start when `valueLength` says it was cut. */
  value?: string;
  /** The whole value's length, when `value` is only its start. */
  valueLength?: number;
  /** find: where in the whole value the part `value` quotes begins, when not at its start. */
  valueFrom?: number;
  /** A short control in a table row: the row's local ID (the view puts a row's controls on a line). */
  row?: number;
  /** Where a link leads (absolute URL), to tell repeated links apart. */
  dest?: string;
  /** New since the previous observation of this document (added or revealed). */
  fresh?: boolean;
  /** Nesting level in a tree or nested list of listed items (1: inside a top item). */
  level?: number;
  where: number;
  /** Top edge relative to the visible area's top, in viewport heights (find, read; 0 observing). */
  y: number;
}

/** A run of text a person reads. */
export interface TextItem {
  kind: "text";
  text: string;
  heading?: number;
  /** Nesting level in a tree or nested list (1: inside a top item). */
  level?: number;
  /** find: the controls in the same row or item as the text. */
  near?: ElementItem[];
  /** find: the local ID of its block (select_text, drag, click and scroll take it). */
  at?: number;
  /** read: a table row's table (numbered in the walk), to read the row with its header. */
  table?: number;
  /** read: the row is its table's header. */
  head?: boolean;
  /** find: its block's role (`paragraph`, `heading`, `listitem`, `cell`: `block_roles.ts`). */
  role?: string;
  /** find: its block is inside a scroll panel, where `scroll` with `at` brings it into view. */
  panel?: boolean;
  where: number;
  /** As an element's `y`. */
  y: number;
}

/** An element, a run of text, or the place of a child frame, in reading order. */
export type PageItem =
  | ElementItem
  | TextItem
  | { kind: "frame"; fid: number; where: number; y: number; box: Box };

/** What one frame's walk returns. */
export interface FrameWalk {
  /** Random per-document token: local IDs are only meaningful with it. */
  token: string;
  /** This result's number in the document (what a later walk's `since` names). */
  id: number;
  /** All items in reading order, or with `delta` the ones that replace `removed` items at `start`. */
  items: PageItem[];
  delta?: { start: number; removed: number };
  /** Interactive elements outside the observed band, by direction. */
  above: number;
  below: number;
  /** Screens of document above and below the visible area. */
  screensAbove: number;
  screensBelow: number;
  /** Screens of document beside the visible area, to the left and to the right. */
  screensLeft: number;
  screensRight: number;
  /** Scroll containers in view whose hidden part holds interactive elements. */
  scrollers: Scroller[];
  /** find: matches inside collapsed or hidden parts, with the control that shows them. */
  hidden: HiddenMatch[];
  /** A modal dialog is open: items outside it are behind it (inert). */
  modal: boolean;
  /** The document was observed before (so `fresh` marks mean something). */
  seenBefore: boolean;
  /** The frame's viewport size. */
  width: number;
  height: number;
  /** Milliseconds spent in the page. */
  ms: number;
  /** Elements whose walk was taken from earlier observations (incremental observation). */
  reused: number;
}

/** A scroll container: its stable name, the interactive elements it holds, and where they are. */
export interface Scroller {
  name: string;
  /** Interactive elements inside it, and those out of its view above (or left) and below. */
  total: number;
  above: number;
  below: number;
  /** The scroll area's own local ID (what `scroll` takes to scroll it). */
  lid: number;
}

/** find: matches in a collapsed part; `lid` and name of the control that expands it. */
export interface HiddenMatch {
  lid: number;
  label: string;
  count: number;
}

/** A colour as red, green, blue (0–255) and alpha (0–1). */
export type Rgba = [number, number, number, number];
