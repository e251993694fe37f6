/// <reference lib="dom" />
/**
 * Scrolling: the page or the scroll container around an element, by screens or pixels, and
 * bringing an element into view.
 *
 * @module
 */
import { actionWorkPending } from "../../settle/page/timers.ts";

/** Where a scroll went: pixels moved, pixels left in that direction, and what scrolled. */
export interface ScrollResult {
  moved: number;
  left: number;
  /** "the page", or a short description of the scrolled container. */
  what: string;
  /** Items that loaded after a scroll down reached the bottom (an endless list). */
  loaded: number;
}

/** How long a scroll that reached the bottom waits for a sign that more is coming. */
const GROW_SIGN_MS = 200;
/** How often it looks again after that while the scroll's work (a timer, a request) is pending. */
const GROW_CHECK_MS = 50;
/** The longest wait for a sign while only the scroll's pending work says more may come. */
const GROW_SIGN_MAX_MS = 700;
/** How long it waits for more to load once a sign came (a change, a loading indicator). */
const GROW_MAX_MS = 3000;
/** Quiet after the last addition that ends the wait. */
const GROW_QUIET_MS = 200;

/**
 * Scrolls by a share of a screen (`screens`, negative is up): the scroll container around `el`
 * (itself included) when given, else the page, else the largest scrollable area on screen. A
 * scroll down that reaches the bottom waits briefly for the list to grow, as endless feeds do.
 */
export async function scrollBy(el: Element | null, screens: number): Promise<ScrollResult> {
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
    while (p && !scrollable(p)) p = parentElementOf(p);
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
  box.scrollBy({ top: height * screens, behavior: "instant" });
  const moved = box.scrollTop - before;
  const below = () => box.scrollHeight - box.clientHeight - box.scrollTop;
  const loaded = screens > 0 && below() <= 2 ? await growth(box) : 0;
  const left = screens > 0 ? below() : box.scrollTop;
  let what = "the page";
  if (!isPage) {
    const label = box.getAttribute("aria-label") ?? box.id ?? "";
    what = `the scrollable <${box.localName}>${label ? ` "${label}"` : ""}`;
  }
  return { moved: Math.round(moved), left: Math.max(0, Math.round(left)), what, loaded };
}

/**
 * Waits for `box` (a scroll container, or the page's) to grow after reaching its bottom: up to
 * {@link GROW_SIGN_MS} for a sign (any change), up to {@link GROW_SIGN_MAX_MS} while work the
 * scroll set off is pending (a short timer, a young request: see `timers.ts`) or no recorder
 * can tell, then until
 * additions stop or {@link GROW_MAX_MS}.
 * Returns how many items were added (0 when it did not grow).
 */
function growth(box: Element): Promise<number> {
  const height = box.scrollHeight;
  const added = new Set<Element>();
  return new Promise((resolve) => {
    let sign = false;
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      observer.disconnect();
      clearTimeout(quiet);
      clearTimeout(noSign);
      clearTimeout(cap);
      resolve(box.scrollHeight > height ? items(added) : 0);
    };
    const observer = new MutationObserver((records) => {
      sign = true;
      for (const r of records) {
        for (const n of Array.from(r.addedNodes)) if (n instanceof Element) added.add(n);
      }
      clearTimeout(quiet);
      if (box.scrollHeight > height) quiet = setTimeout(finish, GROW_QUIET_MS);
    });
    observer.observe(document, { subtree: true, childList: true, characterData: true });
    let noSign: ReturnType<typeof setTimeout> | undefined;
    const started = performance.now();
    const look = (ms: number) => {
      noSign = setTimeout(() => {
        if (sign) return;
        const left = GROW_SIGN_MAX_MS - (performance.now() - started);
        // Where no recorder can tell (a document loaded before it was), look on till the end.
        if (left > 0 && actionWorkPending() !== false) look(Math.min(GROW_CHECK_MS, left));
        else finish();
      }, ms);
    };
    look(GROW_SIGN_MS);
    const cap = setTimeout(finish, GROW_MAX_MS);
  });
}

/** Visible items among added elements: the outermost ones, or the children of a single one. */
function items(added: Set<Element>): number {
  const roots = [...added].filter((el) => {
    if (!el.isConnected || !el.checkVisibility()) return false;
    for (let p = el.parentElement; p; p = p.parentElement) if (added.has(p)) return false;
    return true;
  });
  if (roots.length === 1 && roots[0]!.childElementCount > 1) return roots[0]!.childElementCount;
  return roots.length;
}

/** The parent element in the flat tree (the host of a shadow root), or null at the top. */
function parentElementOf(el: Element): Element | null {
  return el.parentElement ?? ((el.getRootNode() as ShadowRoot).host ?? null);
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
