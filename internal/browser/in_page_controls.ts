/// <reference lib="dom" />
/**
 * In-page helpers for page-level controls (scrolling by pixels, reading the focused element),
 * run in puppeteer's isolated world. Each function is serialised on its own: it must not use
 * anything from outside its own body.
 *
 * @module
 */

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

/** The focused element of this document (through open shadow roots), as a screen reader names it. */
export interface FocusedInfo {
  /** Explicit or implicit ARIA role, e.g. `link`, `textbox`; the tag name when it has none. */
  role: string;
  tag: string;
  label: string;
  /** The focus is in a child frame of this document. */
  inFrame: boolean;
}

/** Reads the focused element; undefined when this document does not hold the focus. */
export function focusedElementInfo(): FocusedInfo | undefined {
  if (!document.hasFocus()) return undefined;
  let el: Element | null = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  if (!el || el === document.body || el === document.documentElement) return undefined;
  const tag = el.localName;
  const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
  let role = el.getAttribute("role") ?? "";
  if (!role) {
    if (tag === "a") role = el.hasAttribute("href") ? "link" : "";
    else if (tag === "button" || tag === "summary") role = "button";
    else if (tag === "textarea") role = "textbox";
    else if (tag === "select") role = (el as HTMLSelectElement).multiple ? "listbox" : "combobox";
    else if (tag === "input") {
      const type = (el as HTMLInputElement).type;
      const byType: Record<string, string> = {
        checkbox: "checkbox",
        radio: "radio",
        range: "slider",
        number: "spinbutton",
        search: "searchbox",
        button: "button",
        submit: "button",
        reset: "button",
        image: "button",
      };
      role = byType[type] ?? "textbox";
    } else if ((el as HTMLElement).isContentEditable) role = "textbox";
  }
  let label = clean(el.getAttribute("aria-label"));
  if (!label && "labels" in el) {
    const labels = (el as HTMLInputElement).labels;
    if (labels) label = clean(Array.from(labels, (l) => l.textContent).join(" "));
  }
  if (!label) label = clean((el as HTMLInputElement).placeholder ?? "");
  if (!label) label = clean(el.textContent).slice(0, 100);
  return { role: role || tag, tag, label, inFrame: tag === "iframe" || tag === "frame" };
}

/**
 * Makes the text of inputs, text areas and editors transparent in this document and its open
 * shadow roots (for a screenshot that must not show typed secrets), with style elements marked
 * `data-ba-hide="<token>"`; {@link showFieldText} removes them. Returns how many were added.
 */
export function hideFieldText(token: string): number {
  const css = "input, textarea, [contenteditable]:not([contenteditable=false]) {" +
    " color: transparent !important; -webkit-text-fill-color: transparent !important;" +
    " text-shadow: none !important; caret-color: transparent !important; }";
  const roots: (Document | ShadowRoot)[] = [document];
  const walk = (root: Document | ShadowRoot) => {
    for (const el of Array.from(root.querySelectorAll("*"))) {
      if (el.shadowRoot) {
        roots.push(el.shadowRoot);
        walk(el.shadowRoot);
      }
    }
  };
  walk(document);
  for (const root of roots) {
    const style = document.createElement("style");
    style.setAttribute("data-ba-hide", token);
    style.textContent = css;
    (root === document ? document.documentElement : root).append(style);
  }
  return roots.length;
}

/** Removes what {@link hideFieldText} added with this token. */
export function showFieldText(token: string): void {
  const remove = (root: Document | ShadowRoot) => {
    for (const el of Array.from(root.querySelectorAll("*"))) {
      if (el.localName === "style" && el.getAttribute("data-ba-hide") === token) el.remove();
      else if (el.shadowRoot) remove(el.shadowRoot);
    }
  };
  remove(document);
}
