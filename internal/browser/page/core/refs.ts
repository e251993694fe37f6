/// <reference lib="dom" />
/**
 * Lookups of the walker's numbers: the element behind a local ID, and where a link leads.
 *
 * @module
 */
import { docState } from "./state.ts";

/** Finds the element behind a local ID of the document with `token`, or null when it is gone. */
export function elementByLocalId(token: string, lid: number): Element | null {
  const state = docState();
  if (state.token !== token) return null;
  const el = state.els.get(lid)?.deref();
  return el && el.isConnected ? el : null;
}

/** The absolute URL a link leads to; "" for anything that is not a link. */
export function linkHref(el: Element): string {
  return (el as HTMLAnchorElement).href ?? "";
}
