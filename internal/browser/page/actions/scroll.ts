/// <reference lib="dom" />
/**
 * Scrolling: the page or the scroll container around an element, by screens or pixels, and
 * bringing an element into view.
 *
 * @module
 */
import { deepElementFromPoint, drawnParent } from "../core/dom.ts";
import { clean, cut } from "../../shared/text.ts";
import { visuallyHidden } from "../core/visually_hidden.ts";

/** Where a scroll went: pixels moved, pixels left in that direction, and what scrolled. */
export interface ScrollResult {
  moved: number;
  left: number;
  /** "the page", or a short description of the scrolled container. */
  what: string;
  /**
   * A scroll down reached the bottom: what the list adds while the page settles (an endless
   * feed loading more) is counted by {@link scrollGrowth}.
   */
  atBottom: boolean;
  /** What came into view: new headings and lines of text, in reading order (a few each). */
  revealed: { headings: string[]; samples: string[] };
}

/** The list a scroll reached the bottom of, watched for what is added while the page settles. */
interface GrowthWatch {
  box: Element;
  height: number;
  added: Set<Element>;
  observer: MutationObserver;
}

const watches = new WeakMap<Document, GrowthWatch>();

/**
 * Scrolls by a share of a screen (`screens`, negative is up): the scroll container around `el`
 * (itself included) when given, else the page, else the largest scrollable area on screen. A
 * scroll down that reaches the bottom starts watching the list grow, as endless feeds do: the
 * action settles as any does (`settle/`), then {@link scrollGrowth} says what came.
 */
export function scrollBy(el: Element | null, screens: number): ScrollResult {
  const root = document.scrollingElement ?? document.documentElement;
  const scrollable = (e: Element): boolean => {
    if (e === root) return true;
    const s = getComputedStyle(e);
    return /(auto|scroll|overlay)/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1;
  };
  const canMove = (e: Element) =>
    screens > 0 ? e.scrollTop + e.clientHeight < e.scrollHeight - 1 : e.scrollTop > 0;
  let box: Element = root;
  if (el) {
    let p: Element | null = el;
    while (p && !scrollable(p)) p = drawnParent(p);
    box = p ?? root;
  } else if (!canMove(root)) {
    let best: Element | undefined, area = 0;
    for (const e of Array.from(document.querySelectorAll("*"))) {
      if (e === root || e === document.body || !scrollable(e) || !canMove(e)) continue;
      const r = e.getBoundingClientRect();
      const a = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)) * r.width;
      if (a > area) [best, area] = [e, a];
    }
    if (best) box = best;
  }
  const isPage = box === root || box === document.body;
  const height = isPage ? innerHeight : box.clientHeight;
  const before = box.scrollTop;
  const shown = inView(box, isPage);
  // A box moves a page of itself, one line kept: a share of a short box is a line or two.
  const step = isPage ? height * screens : Math.sign(screens) * Math.max(
    Math.abs(screens) * height,
    height - lineHeight(box),
  );
  box.scrollBy({ top: step, behavior: "instant" });
  const moved = box.scrollTop - before;
  const below = () => box.scrollHeight - box.clientHeight - box.scrollTop;
  const atBottom = screens > 0 && below() <= 2;
  watches.get(document)?.observer.disconnect();
  watches.delete(document);
  if (atBottom) watchGrowth(box);
  const left = screens > 0 ? below() : box.scrollTop;
  return scrollResult(box, isPage, { moved, left, atBottom, shown });
}

/** The height of a line of text in `box`, in pixels. */
function lineHeight(box: Element): number {
  const s = getComputedStyle(box);
  return parseFloat(s.lineHeight) || 1.2 * (parseFloat(s.fontSize) || 16);
}

/**
 * What a scroll of `box` (the page when `isPage`) did, as {@link ScrollResult} says it: pixels
 * moved and left, what scrolled, and what came into view since `shown` (its lines before).
 */
export function scrollResult(
  box: Element,
  isPage: boolean,
  r: { moved: number; left: number; atBottom: boolean; shown: Map<string, boolean> },
): ScrollResult {
  let what = "the page";
  if (!isPage) {
    const label = box.getAttribute("aria-label") ?? box.id ?? "";
    what = `the scrollable <${box.localName}>${label ? ` "${label}"` : ""}`;
  }
  return {
    moved: Math.round(r.moved),
    left: Math.max(0, Math.round(r.left)),
    what,
    atBottom: r.atBottom,
    revealed: newInView(r.shown, inView(box, isPage)),
  };
}

/** A line of text in view, and whether it is a heading. */
interface Line {
  text: string;
  heading: boolean;
}

/** Rows of points looked at in a scrolled area, this far apart (a line of text is ~16-24 px). */
const ROW_PX = 20;

/**
 * The lines of text drawn in the visible part of `box` (the page's view for the page), as a
 * person sees them: the text under a grid of points, so covered, clipped, transparent and
 * screen-reader-only text is not among them. Keyed by text; true for a heading.
 */
export function inView(box: Element, isPage: boolean): Map<string, boolean> {
  const b = isPage
    ? { left: 0, top: 0, right: innerWidth, bottom: innerHeight }
    : box.getBoundingClientRect();
  const left = Math.max(b.left, 0), right = Math.min(b.right, innerWidth);
  const top = Math.max(b.top, 0), bottom = Math.min(b.bottom, innerHeight);
  const lines = new Map<string, boolean>();
  const met = new Set<Node>();
  const hidden = new Map<Element, boolean>();
  const range = document.createRange();
  for (let y = top + ROW_PX / 2; y < bottom; y += ROW_PX) {
    for (const fx of [0.15, 0.5, 0.85]) {
      const x = left + (right - left) * fx;
      const text = textAt(x, y, range);
      if (!text || met.has(text) || (!isPage && !box.contains(text))) continue;
      met.add(text);
      const line = lineOf(text, hidden);
      if (line && !lines.has(line.text)) lines.set(line.text, line.heading);
    }
  }
  return lines;
}

/**
 * The text node on the line drawn at a point (through open shadow roots), if there is one: the
 * text under the point, or the text of that line in the element under it (short lines end
 * before the point).
 */
function textAt(x: number, y: number, range: Range): Text | undefined {
  const hit = deepElementFromPoint(x, y);
  const root = hit?.getRootNode();
  const shadowRoots = root instanceof ShadowRoot ? [root] : [];
  const node = document.caretPositionFromPoint(x, y, { shadowRoots })?.offsetNode;
  if (!(node instanceof Text) || !/\S/.test(node.data)) return undefined;
  // The caret may be in another line (below a margin): only a text on this line counts.
  range.selectNodeContents(node);
  for (const r of Array.from(range.getClientRects())) {
    if (y >= r.top && y <= r.bottom) return node;
  }
  return undefined;
}

/**
 * The line a text node shows, as the walker would list it: its heading's text, or its own; none
 * when it is for screen readers only or unreadable (transparent, tiny).
 */
function lineOf(node: Text, hidden: Map<Element, boolean>): Line | undefined {
  const parent = node.parentElement;
  if (!parent || visuallyHidden(parent, hidden)) return undefined;
  const style = getComputedStyle(parent);
  if (parseFloat(style.fontSize) < 5 || /^rgba\(.*, 0(\.0\d*)?\)$/.test(style.color)) {
    return undefined;
  }
  const heading = parent.closest<HTMLElement>('h1, h2, h3, h4, h5, h6, [role="heading"]');
  const text = clean(heading ? heading.innerText : node.data);
  return text ? { text: cut(text, 60), heading: heading !== null } : undefined;
}

/** What is in view now that was not before: two headings and two lines at most. */
export function newInView(
  before: Map<string, boolean>,
  after: Map<string, boolean>,
): { headings: string[]; samples: string[] } {
  const headings: string[] = [], samples: string[] = [];
  for (const [text, heading] of after) {
    if (before.has(text)) continue;
    if (heading && headings.length < 2) headings.push(text);
    else if (!heading && samples.length < 2) samples.push(text);
  }
  return { headings, samples };
}

function watchGrowth(box: Element): void {
  const added = new Set<Element>();
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      for (const n of Array.from(r.addedNodes)) if (n instanceof Element) added.add(n);
    }
  });
  observer.observe(document, { subtree: true, childList: true });
  watches.set(document, { box, height: box.scrollHeight, added, observer });
}

/**
 * What the list the last scroll reached the bottom of gained since (see {@link scrollBy}):
 * the items added (0 when it did not grow) and the pixels now below; stops watching. Null when
 * no scroll reached a bottom in this document.
 */
export function scrollGrowth(): { loaded: number; left: number } | null {
  const w = watches.get(document);
  if (!w) return null;
  for (const r of w.observer.takeRecords()) {
    for (const n of Array.from(r.addedNodes)) if (n instanceof Element) w.added.add(n);
  }
  w.observer.disconnect();
  watches.delete(document);
  const box = w.box;
  const left = Math.max(0, Math.round(box.scrollHeight - box.clientHeight - box.scrollTop));
  return { loaded: box.scrollHeight > w.height ? items(w.added) : 0, left };
}

/**
 * Visible items among added elements: the outermost ones, or the children of a single one when
 * they are alike (a chunk of list items or cards); a single chunk of unlike parts (a heading and
 * its paragraph) is one item (report rule: count what loaded correctly).
 */
function items(added: Set<Element>): number {
  const roots = [...added].filter((el) => {
    if (!el.isConnected || !el.checkVisibility()) return false;
    for (let p = el.parentElement; p; p = p.parentElement) if (added.has(p)) return false;
    return true;
  });
  if (roots.length !== 1) return roots.length;
  const parts = [...roots[0]!.children].filter((c) =>
    c.checkVisibility() && (c.textContent ?? "").trim() !== ""
  );
  const alike = parts.every((c) => c.localName === parts[0]!.localName);
  return parts.length > 1 && alike ? parts.length : 1;
}

/** Scrolls `el` to the middle of its scroll containers; true when it is now in the viewport. */
export function revealElement(el: Element): boolean {
  el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  const r = el.getBoundingClientRect();
  return r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
}

/** Scrolls `el` vertically to the middle of the view, smoothly or at once. */
export function centreElement(el: Element, smooth: boolean): void {
  el.scrollIntoView({ block: "center", behavior: smooth ? "smooth" : "instant" });
}

/** Where {@link scrollWindow} should go. */
export interface ScrollRequest {
  /** Jump to the top or the bottom; else scroll by `x`/`y`. */
  to?: "top" | "bottom";
  x: number;
  y: number;
  smooth: boolean;
}

/** Scrolls the page; returns the new position and how much is left below. */
export function scrollWindow(req: ScrollRequest): { x: number; y: number; below: number } {
  const el = document.scrollingElement ?? document.documentElement;
  const behavior: ScrollBehavior = req.smooth ? "smooth" : "instant";
  if (req.to === "top") el.scrollTo({ top: 0, behavior });
  else if (req.to === "bottom") el.scrollTo({ top: el.scrollHeight, behavior });
  else el.scrollBy({ left: req.x, top: req.y, behavior });
  // A smooth scroll is still under way: report where it is heading.
  const y = req.to === "top"
    ? 0
    : req.to === "bottom"
    ? el.scrollHeight - el.clientHeight
    : req.smooth
    ? el.scrollTop + req.y
    : el.scrollTop;
  const top = Math.max(0, Math.min(y, el.scrollHeight - el.clientHeight));
  return {
    x: Math.round(el.scrollLeft),
    y: Math.round(top),
    below: Math.max(0, Math.round(el.scrollHeight - el.clientHeight - top)),
  };
}
