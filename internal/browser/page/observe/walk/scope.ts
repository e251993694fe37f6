/// <reference lib="dom" />
/**
 * What one walk of a document knows from its start (options, the view and the band, focus and
 * modal dialog, what changed since the last observation), and the context each element passes
 * to its children.
 *
 * @module
 */
import { deepActiveElement } from "../../core/dom.ts";
import { listenedElements } from "../listeners.ts";
import { docState } from "../../core/state.ts";
import { norm } from "../../../shared/text.ts";
import { type Box, type WalkOptions, WHERE } from "../../../shared/walk_types.ts";
import { WalkCache } from "./walk_cache.ts";

export type { Ctl, Ctx, WalkScope } from "./scope_types.ts";
import type { WalkScope } from "./scope_types.ts";

/**
 * Starts a walk: the document's state and what changed since the last observation (an
 * observation becomes the last one), the focus and modal dialog, the view and the band.
 */
export function startWalk(o: WalkOptions): WalkScope {
  const state = docState();
  const observing = o.mode === "observe";
  // What was added to the document or hidden at the last observation tells which are new: the
  // walk cache's change log records additions from the first observation on.
  if (observing) state.cache ??= new WalkCache((n) => state.added.add(n));
  state.cache?.takeChanges();
  const seenBefore = state.observed > 0;
  const added = state.added;
  const wasHidden = state.hidden;
  const nowHidden = new WeakSet<Element>();
  if (observing) {
    state.observed++;
    state.added = new Set();
    state.hidden = nowHidden;
  }

  const vh = innerHeight || 1, vw = innerWidth || 1;
  const view: Box = o.clip ?? { top: 0, left: 0, bottom: vh, right: vw };
  const pageScope = o.scope === "page";
  const band = vh * o.margin;
  const active = deepActiveElement();
  return {
    o,
    state,
    observing,
    seenBefore,
    added,
    wasHidden,
    nowHidden,
    active,
    focusForm: active?.closest("form, [role=form], [role=search]") ?? null,
    modalEl: openModal(),
    view,
    vw,
    vh,
    sx: scrollX,
    sy: scrollY,
    pageScope,
    bandTop: pageScope ? -Infinity : o.band ? o.band.top : view.top - band,
    bandBottom: pageScope ? Infinity : o.band ? o.band.bottom : view.bottom + band,
    query: o.query ? norm(o.query) : "",
    listened: o.listeners && o.mode !== "read" ? listenedElements(o.listeners) : new WeakMap(),
  };
}

/** The last open, visible modal dialog, or null. */
function openModal(): Element | null {
  let modalEl: Element | null = null;
  for (const d of document.querySelectorAll("dialog, [role=dialog], [role=alertdialog]")) {
    const modal = d.localName === "dialog"
      ? d.matches(":modal")
      : d.getAttribute("aria-modal") === "true" || d.getAttribute("role") === "alertdialog";
    if (!modal || !d.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
      continue;
    }
    const r = d.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) modalEl = d;
  }
  return modalEl;
}

/** Pushed off the page's top or left edge, where no one can scroll to. */
export function offPage(w: WalkScope, r: Box): boolean {
  return r.right + w.sx < 0 || r.bottom + w.sy < 0;
}

/**
 * An item's `y`: the top edge of its box `r` from the visible area's top, in viewport heights,
 * for find and read; 0 in observations, which never show it: a layout shift then changes only the
 * items that cross an edge of the view, and the walk cache replays the parts that moved.
 */
export function yOf(w: WalkScope, r: Box): number {
  return w.observing ? 0 : (r.top - w.view.top) / w.vh;
}

/** The `WHERE` flags of a box: `where` (dialog, form), and whether it is in the visible area. */
export function whereOf(w: WalkScope, r: Box, where: number): number {
  const v = w.view;
  const inView = r.bottom > v.top && r.top < v.bottom && r.right > v.left && r.left < v.right;
  return where | (inView ? WHERE.viewport : 0);
}
