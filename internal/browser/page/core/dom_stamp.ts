/// <reference lib="dom" />
/**
 * A number that grows whenever this document's DOM changed in a way that may change which
 * elements a query finds (not inside shadow roots, which a document's `querySelectorAll` does
 * not enter either): what was found holds while the number is the same, so a poll that asks
 * again and again (settling) queries again only after such a change. One query's watch per
 * document (the busy signs'); `WATCHED` names what may change its answer.
 *
 * @module
 */
import { type DocState, docState } from "./state.ts";

/** What may change which elements a query finds. */
export interface Watched {
  /** Attributes the query's selectors read (directly or through an ancestor: `disabled`). */
  attributes: string[];
  /**
   * Elements that may match, or change what matches (a `<fieldset>`, its `<legend>`), when added
   * or removed: a change that adds or removes none of them (a line of text) leaves the answer.
   */
  elements: string;
}

type Stamp = NonNullable<DocState["stamp"]>;

/**
 * This document's stamp for the query `watched` describes: the same number as before when
 * nothing that may change its answer changed between (changes not yet delivered to the observer
 * are taken at once, so a change made by the same task counts).
 */
export function domStamp(watched: Watched): number {
  const state = docState();
  let s = state.stamp;
  if (!s) {
    const stamp: Stamp = {
      observer: new MutationObserver((records) => note(stamp, records, watched)),
      n: 0,
    };
    stamp.observer.observe(document, {
      subtree: true,
      childList: true,
      attributeFilter: watched.attributes,
    });
    state.stamp = s = stamp;
  }
  note(s, s.observer.takeRecords(), watched);
  return s.n;
}

function note(s: Stamp, records: MutationRecord[], watched: Watched): void {
  if (records.some((r) => counts(r, watched.elements))) s.n++;
}

function counts(r: MutationRecord, elements: string): boolean {
  if (r.type === "attributes") return true;
  const related = (n: Node) =>
    n instanceof Element && (n.matches(elements) || n.querySelector(elements) !== null);
  return Array.from(r.addedNodes).some(related) || Array.from(r.removedNodes).some(related);
}
