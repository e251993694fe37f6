/// <reference lib="dom" />
/**
 * The types of one walk's scope and of what an element passes to its children: shared by the
 * walk's parts without importing the code that starts a walk (`scope.ts`).
 *
 * @module
 */
import type { DocState } from "../../core/state.ts";
import type { Box, ElementItem, Rgba, WalkOptions } from "../../../shared/walk_types.ts";

/** What one walk knows from its start. */
export interface WalkScope {
  o: WalkOptions;
  state: DocState;
  /** This walk is an observation (it marks new elements and becomes the last observation). */
  observing: boolean;
  /** The document was observed before; nodes added and elements hidden since then. */
  seenBefore: boolean;
  added: Set<Node>;
  wasHidden: WeakSet<Element>;
  /** Elements this walk finds hidden: the next observation's `wasHidden`. */
  nowHidden: WeakSet<Element>;
  /** The focused element (through shadow roots), the form it is in, and the open modal dialog. */
  active: Element | null;
  focusForm: Element | null;
  modalEl: Element | null;
  /** The visible area, the viewport's size and the scroll position. */
  view: Box;
  vw: number;
  vh: number;
  sx: number;
  sy: number;
  /** The whole document is walked; else only the band between `bandTop` and `bandBottom`. */
  pageScope: boolean;
  bandTop: number;
  bandBottom: number;
  /** find: the normalised query. */
  query: string;
  /** Elements page scripts gave listeners, with their signs (none without the recorder). */
  listened: WeakMap<Element, number>;
}

/** A listed control while its subtree is walked: text below it becomes its label. */
export interface Ctl {
  item: ElementItem;
  el: Element;
  /** Visible text inside the control. */
  buf: string;
  /** Text inside it that only screen readers get (visually hidden, icon titles). */
  sr: string;
  /** 2: a control natively or by role; 1: by heuristics (listeners, pointer cursor). */
  kind: number;
  /** Listed by an operating sign alone (`operations.ts`): dropped unless named or knob-sized. */
  bySign?: boolean;
  /** The children its listener acts on (`delegates.ts`): each is listed as a control. */
  parts?: ReadonlySet<Element>;
  /** Its place in the walk's items, and how many controls were listed inside it. */
  index: number;
  inner: number;
  /** The text node whose text `buf` ends with (to keep pieces drawn apart apart). */
  last: Text | null;
}

/** What an element passes to its children. */
export interface Ctx {
  /** Element whose box groups text into one line. */
  block: Element | null;
  /** Table cell the text is in, to join a row's cells with " | ". */
  cell: Element | null;
  heading: number;
  /** Nesting level in trees and nested lists (lists inside list items). */
  nest: number;
  /** Innermost listed control: text below it becomes its label. */
  control: Ctl | null;
  /** Innermost listed control, also inside a `<label>` whose text goes to the control it names. */
  owner: Ctl | null;
  /** Visible region (overflow clipping), and the one in force at the nearest positioned ancestor. */
  clip: Box | null;
  posClip: Box | null;
  /** Index in the walk's scrollers of the scroll container that made `clip`, or -1. */
  scroller: number;
  /** Effective background colour (null: an image or unknown). */
  bg: Rgba | null;
  /** The element's cursor (its children's parent cursor). */
  cursor: string;
  where: number;
  hidden: boolean;
  /** Inside a root that delegates every event: the boxes drawn apart in it are controls. */
  delegated?: boolean;
}
