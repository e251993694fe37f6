/// <reference lib="dom" />
/**
 * In-page lookups of the walker's numbers, run in the isolated world. Each function is serialised
 * on its own by `evaluate`: it must not use anything from outside its own body.
 *
 * @module
 */

/** Finds the element behind a local ID, or null when it is gone. */
export function elementByLocalId(token: string, lid: number): Element | null {
  const g = globalThis as unknown as {
    __browserAgent?: { token: string; els: Map<number, WeakRef<Element>> };
  };
  const state = g.__browserAgent;
  if (!state || state.token !== token) return null;
  const el = state.els.get(lid)?.deref();
  return el && el.isConnected ? el : null;
}

/** The number of an `<iframe>` element, as the walker's frame items give it (assigned here first if new). */
export function frameIdOf(el: Element): number {
  const frames = (globalThis as unknown as {
    __browserAgentFrames?: { ids: WeakMap<Element, number>; next: number };
  }).__browserAgentFrames ??= { ids: new WeakMap(), next: 1 };
  let fid = frames.ids.get(el);
  if (fid === undefined) frames.ids.set(el, fid = frames.next++);
  return fid;
}
