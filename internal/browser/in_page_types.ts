/// <reference lib="dom" />
/**
 * Types shared by the page walker (`in_page.ts`) and the helpers it uses (`in_page_paint.ts`,
 * `in_page_roles.ts`, `in_page_describe.ts`). The helpers are installed once per document on the
 * isolated world's global `__browserAgentHelpers` by self-contained install functions; the walker
 * reads them there. Only types and plain constants live here: nothing of this module runs in a page.
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
  /** Part of this frame's viewport that is visible in the top page (child frames); null: all. */
  clip: Box | null;
  /** The band to list (visible part plus margin) in a child frame; null: from `clip` and `margin`. */
  band: Box | null;
  /** find: the text to look for (normalised and lower-cased by the caller). */
  query?: string;
  /** find: only elements of this role. */
  role?: string;
  /** The helpers' version the walker needs; it returns null when the document has another. */
  helpers: string;
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
  value?: string;
  /** Where a link leads (absolute URL), to tell repeated links apart. */
  dest?: string;
  /** New since the previous observation of this document (added or revealed). */
  fresh?: boolean;
  where: number;
  /** Top edge relative to the visible area's top, in viewport heights. */
  y: number;
}

/** An element, a run of text, or the place of a child frame, in reading order. */
export type PageItem =
  | ElementItem
  | { kind: "text"; text: string; heading?: number; where: number; y: number }
  | { kind: "frame"; fid: number; where: number; y: number; box: Box };

/** What one frame's walk returns. */
export interface FrameWalk {
  /** Random per-document token: local IDs are only meaningful with it. */
  token: string;
  items: PageItem[];
  /** Interactive elements outside the observed band, by direction. */
  above: number;
  below: number;
  /** Screens of document above and below the visible area. */
  screensAbove: number;
  screensBelow: number;
  /** Scroll containers in view whose hidden part holds interactive elements. */
  scrollers: { name: string; more: number }[];
  /** A modal dialog is open: items outside it are behind it (inert). */
  modal: boolean;
  /** The document was observed before (so `fresh` marks mean something). */
  seenBefore: boolean;
  /** The frame's viewport size. */
  width: number;
  height: number;
  /** Milliseconds spent in the page. */
  ms: number;
}

/** The walker's per-document state on the isolated world's `__browserAgent` global. */
export interface AgentState {
  token: string;
  next: number;
  ids: WeakMap<Element, number>;
  els: Map<number, WeakRef<Element>>;
  observed: number;
  added: Set<Node>;
  hidden: WeakSet<Element>;
  mo?: MutationObserver;
  overlay?: Element;
}

/** A colour as red, green, blue (0–255) and alpha (0–1). */
export type Rgba = [number, number, number, number];

/** A listed control while its subtree is walked: text below it becomes its label. */
export interface Ctl {
  item: ElementItem;
  el: Element;
  /** Visible text inside the control. */
  buf: string;
  /** Text inside it that only screen readers get (visually hidden, icon titles). */
  sr: string;
}

/** What one walk knows that the describing helpers need. */
export interface WalkScope {
  o: WalkOptions;
  state: AgentState;
  /** The focused element (through shadow roots), or null. */
  active: Element | null;
  observing: boolean;
  seenBefore: boolean;
  /** Nodes added to the document, and elements hidden, since the last observation. */
  added: Set<Node>;
  wasHidden: WeakSet<Element>;
}

/** Text helpers (`in_page_roles.ts`). */
export interface TextHelpers {
  /** Whitespace collapsed and trimmed. */
  clean(s: string | null | undefined): string;
  /** At most `n` characters, with `…` when cut. */
  cut(s: string, n: number): string;
  /** Case-, accent- and width-insensitive form for matching. */
  norm(s: string): string;
}

/** Role and interactivity helpers (`in_page_roles.ts`). */
export interface RoleHelpers {
  textOfIds(el: Element, ids: string): string;
  implicitRole(el: Element): string;
  /** How an element is interactive: 2 natively or by role, 1 by heuristics, 0 not. */
  interactive(el: Element, s: CSSStyleDeclaration, parentPointer: boolean): number;
  /** A checkbox or radio input (may be drawn by its label instead). */
  isToggle(el: Element): boolean;
  /** A short name of a scroll container. */
  nameOf(el: Element): string;
  /** A selector of obviously interactive elements, to count those outside the band. */
  selector: string;
  /** Tags the walker never enters, and tags whose inside is not page text. */
  skip: Set<string>;
  leaf: Set<string>;
  /** The focused element (through shadow roots), the form it is in, and the open modal dialog. */
  focusAndModal(): {
    active: Element | null;
    focusForm: Element | null;
    modalEl: Element | null;
  };
  /** The number of an `<iframe>` element in this document (assigned on first use). */
  frameId(el: Element): number;
}

/** Colour and painting helpers (`in_page_paint.ts`). */
export interface PaintHelpers {
  rgba(c: string): Rgba | null;
  contrast(a: Rgba, b: Rgba): number;
  /** The document's own background (alpha 0: an image). */
  rootBg(): Rgba;
  /**
   * Whether text of `parent`, drawn in rect `r` over the background `bg` the DOM gives it, is
   * unreadable: transparent, tiny, or the same colour as what is painted behind it.
   */
  textHidden(parent: Element, r: DOMRect, bg: Rgba | null): boolean;
  /** The content box of an element whose border box is `r` (where a frame's page is drawn). */
  contentBox(el: Element, r: DOMRect): Box;
  /** The visible region inside an element with these overflows, within `clip` (null: none). */
  clipTo(clip: Box | null, r: DOMRect, overflowX: string, overflowY: string): Box;
}

/** Helpers that describe a listed element (`in_page_describe.ts`). */
export interface DescribeHelpers {
  /** The element's item: tag, role, attributes, states, value and its local ID. */
  describe(w: WalkScope, el: Element, role: string, where: number, y: number): Ctl;
  /** Fills in a control's label once its subtree was walked (accessible-name order). */
  finish(w: WalkScope, c: Ctl): void;
  /**
   * Starts a walk: the document's state (created on first use) and what changed since the last
   * observation; with `observing`, this walk becomes the last observation.
   */
  begin(observing: boolean): {
    state: AgentState;
    seenBefore: boolean;
    added: Set<Node>;
    wasHidden: WeakSet<Element>;
    nowHidden: WeakSet<Element>;
  };
  /** find: whether an element matches the normalised query and the role. */
  matches(item: ElementItem, query: string, role: string | undefined): boolean;
}

/** Everything installed on `globalThis.__browserAgentHelpers`. */
export interface Helpers {
  version?: string;
  text?: TextHelpers;
  roles?: RoleHelpers;
  paint?: PaintHelpers;
  describe?: DescribeHelpers;
}
