/// <reference lib="dom" />
/**
 * DOM utilities of the runtime: the flat tree (open shadow roots), the focused element, busy
 * indicators and frame numbers.
 *
 * @module
 */
import { docState } from "./state.ts";
import { ShadowlessWatch } from "./shadow_watch.ts";

/** The parent of a node in the flat tree: its parent, or the host of the shadow root it is in. */
export function composedParent(n: Node): Node | null {
  // Only a shadow root has a host element (a detached link's `host` is a URL's host name).
  return n.parentNode ?? (n.nodeType === 11 ? (n as ShadowRoot).host ?? null : null);
}

/**
 * The element `el` is drawn in: its parent element, or the host of the shadow root whose top it
 * is in (a component's parts sit in the page where the component does).
 */
export function drawnParent(el: Element): Element | null {
  const p = el.parentNode;
  return p?.nodeType === 11 ? (p as ShadowRoot).host : el.parentElement;
}

/** Elements that draw nothing of their own: a sibling that is one stands for nothing on screen. */
export const UNDRAWN: ReadonlySet<string> = new Set(["style", "script", "link", "template"]);

/**
 * The element that has the keyboard focus, through open shadow roots; null when nothing in
 * particular has it (the body or the root element).
 */
export function deepActiveElement(): Element | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active === document.body || active === document.documentElement ? null : active;
}

/** Drawn, not transparent, and with a size. */
export function visible(el: Element): boolean {
  if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

/**
 * The innermost element drawn at a point, through open shadow roots. Over text a host slots into
 * its shadow tree (`<x-tab>Large</x-tab>` shown in the tab's `<button><slot>`), the shadow root
 * answers with the host itself: the element of its own tree drawn there (the button, which the
 * event reaches through the slot) is the one.
 */
export function deepElementFromPoint(x: number, y: number): Element | null {
  let hit = document.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    let inner = hit.shadowRoot.elementFromPoint(x, y);
    if (inner === hit) {
      const drawn = hit.shadowRoot.elementsFromPoint(x, y)[0];
      inner = drawn && drawn !== hit && hit.shadowRoot.contains(drawn) ? drawn : hit;
    }
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/**
 * Every element of the document and of its open shadow roots, in document order (a host's
 * shadow tree right after the host), up to `limit` elements.
 */
export function deepElements(limit = Infinity): Element[] {
  const all: Element[] = [];
  const walk = (root: Document | ShadowRoot) => {
    for (const el of Array.from(root.querySelectorAll("*"))) {
      if (all.length >= limit) return;
      all.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return all;
}

/**
 * The document and all its open shadow roots (those among its first `limit` elements, shadow
 * trees' included, when given). A document found to hold none is not searched again while
 * nothing could have brought one (`shadow_watch.ts`).
 */
export function openRoots(limit = Infinity): (Document | ShadowRoot)[] {
  const state = docState();
  if (state.shadowless?.holds()) return [document];
  delete state.shadowless;
  // The elements in the order deepElements lists them, counted, never collected: a page of
  // 14,000 elements built two lists of them at each look for a shadow root (most have none).
  const roots: (Document | ShadowRoot)[] = [document];
  let seen = 0;
  const walk = (root: Document | ShadowRoot): boolean => {
    const all = root.querySelectorAll("*");
    for (let i = 0; i < all.length; i++) {
      if (seen >= limit) return false;
      seen++;
      const shadow = all[i]!.shadowRoot;
      if (shadow) {
        roots.push(shadow);
        if (!walk(shadow)) return false;
      }
    }
    return true;
  };
  const whole = walk(document);
  if (whole && roots.length === 1) state.shadowless = ShadowlessWatch.start() ?? undefined;
  return roots;
}

/**
 * The number of an `<iframe>` (or `<frame>`) element in this document, assigned on first use:
 * the walker's frame items and the owner of a child frame are numbered alike.
 */
export function frameId(el: Element): number {
  const frames = docState().frames;
  let fid = frames.ids.get(el);
  if (fid === undefined) frames.ids.set(el, fid = frames.next++);
  return fid;
}

/**
 * Whether a person can scroll the page sideways: it is wider than the window and neither the
 * root nor the body clips that overflow (`overflow-x: hidden` hides an off-canvas menu or a
 * slider's other slides, which only the page's own controls bring into view).
 */
export function pageScrollsSideways(): boolean {
  const root = document.scrollingElement ?? document.documentElement;
  if (root.scrollWidth <= root.clientWidth + 1) return false;
  const clips = (el: Element | null) =>
    el !== null && /hidden|clip/.test(getComputedStyle(el).overflowX);
  return !clips(document.documentElement) && !clips(document.body);
}
