import type { ObservedElement, SummaryLine } from "../../entity/mod.ts";

/** Roles a link may carry and still read as a plain link. */
const LINK_ROLES = new Set(["role=link", "role=menuitem"]);

/**
 * Renders one element as a DOM summary line: `[7] <input type=checkbox> ☐ I accept the terms`.
 * A link with a label, the most common element, is written bare: `[12] Pricing`. An element new
 * since the previous observation is marked `*[57]`; an item nested in a tree is indented one
 * space per level. A name derived from an icon is written apart from text, `(icon: send)`; a
 * value is quoted exactly (line breaks escaped), a cut one followed by how long it is, and a part
 * of one that `find` quotes (`valueFrom`) by where it is in the whole.
 *
 * @example
 * ```ts
 * renderElement({ id: 9, tag: "button", attrs: [], states: ["DISABLED"], label: "Place order" });
 * // "[9] <button> {DISABLED} Place order"
 * renderElement({ id: 12, tag: "a", attrs: [], states: [], label: "Pricing" });
 * // "[12] Pricing"
 * ```
 */
export function renderElement(el: ObservedElement): string {
  const bare = el.tag === "a" && el.label !== "" && el.attrs.every((a) => LINK_ROLES.has(a));
  return renderLine(el, bare);
}

/** An element's line, without its tag and attributes when `bare`. */
function renderLine(el: ObservedElement, bare: boolean): string {
  const mark = `${el.fresh ? "*" : ""}[${el.id}]`;
  const head = bare ? mark : `${mark} <${[el.tag, ...el.attrs].join(" ")}>`;
  const states = el.states.length > 0 ? ` {${el.states.join(" ")}}` : "";
  const label = el.label ? ` ${el.label}` : "";
  const icon = el.icon ? ` (icon: ${el.icon})` : "";
  const from = el.valueFrom ?? 0;
  let value = el.value !== undefined
    ? ` value=${from > 0 ? "…" : ""}${JSON.stringify(el.value)}`
    : "";
  if (el.valueLength !== undefined && el.valueFrom !== undefined) {
    const to = from + (el.value?.length ?? 0);
    value += `${to < el.valueLength ? "…" : ""} (characters ${
      from + 1
    }–${to} of ${el.valueLength})`;
  } else if (el.valueLength !== undefined) {
    value += `… (cut: ${el.valueLength} characters in all; find shows the whole value)`;
  }
  return indent(el.level) + head + states + label + icon + value;
}

/** One space per level: a line's leading space costs no token where two would. */
function indent(level: number | undefined): string {
  return level ? " ".repeat(Math.min(level, 8)) : "";
}

/**
 * Renders the lines of an observation as the text the model reads. The short controls of one
 * row (a calendar's week, a row of a grid of check boxes) share a line, two spaces apart, each
 * after the first written without the tag it shares with the one before it
 * (`[4] <input type=checkbox> ☐  [5] ☑  [6] ☐`); text nested in a tree is indented like its
 * elements.
 * `written` gives an element's line as {@link renderElement} wrote it already, when it did (the
 * observer keeps them for the parts of a page that stay).
 */
export function renderSummary(
  lines: SummaryLine[],
  written?: (el: ObservedElement) => string | undefined,
): string {
  const out: string[] = [];
  let row: number | undefined;
  let before: ObservedElement | undefined;
  for (const line of lines) {
    if (line.kind === "element") {
      const el = line.element;
      const same = row !== undefined && el.row === row;
      // A line sharing its row's head is written shorter: not one kept whole.
      const text = same && sameHead(el, before!)
        ? renderLine(el, true)
        : written?.(el) ?? renderElement(el);
      if (same) out[out.length - 1] += `  ${text.trimStart()}`;
      else out.push(text);
      row = el.row;
      before = el;
      continue;
    }
    row = undefined;
    if (line.kind === "text") {
      out.push(
        indent(line.level) +
          (line.heading ? `${"#".repeat(line.heading)} ${line.text}` : line.text),
      );
    } else out.push(line.text);
  }
  return out.length > 0 ? out.join("\n") : "(the page shows nothing)";
}

/** Whether two elements are written with the same tag and attributes. */
function sameHead(a: ObservedElement, b: ObservedElement): boolean {
  return a.tag === b.tag && a.attrs.length === b.attrs.length &&
    a.attrs.every((x, i) => x === b.attrs[i]);
}
