/// <reference lib="dom" />
/**
 * Dropdowns drawn as plain elements: a box of three or more like children stacked one below the
 * other, read as a list of options (the view lists them, the select verb picks among them).
 *
 * @module
 */
import { clean } from "../../shared/text.ts";

/**
 * The options of a custom dropdown drawn as plain elements: three or more visible children of
 * `el` (or of one child of it) alike in tag and first class, stacked one below the other, each with a
 * short text and nothing to act on inside. Returns their texts and the chosen one (marked
 * selected or active, or shown apart from the list), or null when `el` is not such a dropdown.
 */
export function optionList(el: Element): { options: string[]; value: string } | null {
  const found = optionElements(el);
  if (!found) return null;
  const { kids, box } = found;
  const chosen = kids.find((k) =>
    k.getAttribute("aria-selected") === "true" ||
    /(^|[\s_-])(selected|active|current|chosen)($|[\s_-])/i.test(k.className)
  );
  let value = chosen ? clean((chosen as HTMLElement).innerText) : "";
  if (!value && box !== el) {
    for (const other of el.children) {
      if (other !== box) value ||= clean((other as HTMLElement).innerText);
    }
  }
  return { options: kids.map((k) => clean((k as HTMLElement).innerText)), value };
}

/** The option elements of a custom dropdown drawn as plain elements (see {@link optionList}). */
export function optionElements(el: Element): { kids: Element[]; box: Element } | null {
  if (el.childElementCount === 0 || /^(li|tr|ul|ol|table|tbody|nav)$/.test(el.localName)) {
    return null;
  }
  for (const box of [el, ...Array.from(el.children)]) {
    const kids = Array.from(box.children).filter((k) =>
      k.checkVisibility({ visibilityProperty: true })
    );
    if (kids.length < 3) continue;
    const first = kids[0]!;
    const texts = new Set<string>();
    let top = -Infinity, alike = true;
    for (const k of kids) {
      const t = clean((k as HTMLElement).innerText);
      const r = k.getBoundingClientRect();
      if (
        k.localName !== first.localName || k.classList[0] !== first.classList[0] || !t ||
        t.length > 40 || texts.has(t) || r.top < top + 1 ||
        k.querySelector("a[href], button, input, select, textarea")
      ) {
        alike = false;
        break;
      }
      top = r.top;
      texts.add(t);
    }
    if (alike) return { kids, box };
  }
  return null;
}
