/// <reference lib="dom" />
/**
 * A number that grows whenever this document's DOM changed (nodes, attributes, text; not inside
 * shadow roots, which a document's `querySelectorAll` does not enter either): what was found by
 * querying the document holds while the number is the same, so a poll that asks again and again
 * (settling) queries again only after a change.
 *
 * @module
 */
import { type DocState, docState } from "./state.ts";

/** Watches this document's changes; stopped when another runtime version replaces this one. */
type DomStamp = NonNullable<DocState["stamp"]>;

const ALL = { subtree: true, childList: true, attributes: true, characterData: true };

/**
 * This document's stamp now: the same number as before exactly when nothing changed between
 * (changes not yet delivered to the observer are taken at once, so a change made by the same
 * task counts).
 */
export function domStamp(): number {
  const state = docState();
  let s = state.stamp;
  if (!s) {
    const stamp: DomStamp = { observer: new MutationObserver(() => stamp.n++), n: 0 };
    stamp.observer.observe(document, ALL);
    state.stamp = s = stamp;
  }
  if (s.observer.takeRecords().length > 0) s.n++;
  return s.n;
}
