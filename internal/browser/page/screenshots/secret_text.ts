/// <reference lib="dom" />
/**
 * Hiding text a page shows that holds a secret's value, for a screenshot: a page that echoes a
 * typed password or code prints it in the clear, where hiding fields does not reach.
 *
 * @module
 */
import { openRoots } from "../core/dom.ts";

/** Elements whose text is never drawn as text (or is a field's, which fields hiding covers). */
const UNDRAWN = new Set(["script", "style", "noscript", "template", "textarea", "title"]);

/**
 * Paints every occurrence of one of `values` in this document's text and its open shadow roots'
 * as a black box (text and background alike), with a CSS custom highlight named after `token`
 * and a style element per root marked `data-ba-hide-text="<token>"`: the page's nodes are left as
 * they are. A value split across elements (`hun<b>ter2</b>`) is found too, since the text of each
 * root is searched as one. {@link showSecretText} undoes it. Returns how many occurrences.
 */
export function hideSecretText(token: string, values: readonly string[]): number {
  const needles = values.filter((v) => v.length > 0);
  if (needles.length === 0) return 0;
  const ranges: Range[] = [];
  const roots = openRoots();
  for (const root of roots) {
    const { text, nodes } = textOf(root);
    for (const needle of needles) {
      for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
        const range = document.createRange();
        const start = place(nodes, at);
        const end = place(nodes, at + needle.length - 1);
        range.setStart(start.node, start.offset);
        range.setEnd(end.node, end.offset + 1);
        ranges.push(range);
      }
    }
  }
  if (ranges.length === 0) return 0;
  const name = highlightName(token);
  CSS.highlights.set(name, new Highlight(...ranges));
  for (const root of roots) {
    const style = document.createElement("style");
    style.setAttribute("data-ba-hide-text", token);
    style.textContent = `::highlight(${name}) { color: #000; -webkit-text-fill-color: #000;` +
      " background-color: #000; text-shadow: none; text-decoration: none; }";
    (root === document ? document.documentElement : root).append(style);
  }
  return ranges.length;
}

/** Removes what {@link hideSecretText} added with this token. */
export function showSecretText(token: string): void {
  CSS.highlights.delete(highlightName(token));
  for (const root of openRoots()) {
    for (const el of Array.from(root.querySelectorAll("style[data-ba-hide-text]"))) {
      if (el.getAttribute("data-ba-hide-text") === token) el.remove();
    }
  }
}

function highlightName(token: string): string {
  return `ba-hide-${token.replace(/[^\w-]/g, "")}`;
}

/** A root's drawn text as one string, and the text node each stretch of it comes from. */
function textOf(root: Document | ShadowRoot): { text: string; nodes: [Text, number][] } {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: [Text, number][] = [];
  let text = "";
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (UNDRAWN.has(n.parentElement?.localName ?? "")) continue;
    nodes.push([n as Text, text.length]);
    text += n.nodeValue ?? "";
  }
  return { text, nodes };
}

/** The text node and offset in it of character `at` of {@link textOf}'s string. */
function place(nodes: [Text, number][], at: number): { node: Text; offset: number } {
  let lo = 0;
  let hi = nodes.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (nodes[mid]![1] <= at) lo = mid;
    else hi = mid - 1;
  }
  const [node, start] = nodes[lo]!;
  return { node, offset: at - start };
}
