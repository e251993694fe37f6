/// <reference lib="dom" />
/**
 * Functions that run inside the page, in puppeteer's isolated world, so page scripts that
 * replace `Array.prototype.map` or `querySelectorAll` cannot break or fool them.
 *
 * Each function is serialised on its own by `evaluate`: it must not use anything from
 * outside its own body (no imports, no module-level helpers).
 *
 * @module
 */

/** What one frame's observation returns. */
export interface FrameObservation {
  /** Random per-document token: local IDs are only meaningful with it. */
  token: string;
  items: PageItem[];
  /** Interactive elements outside the observed band, by direction. */
  above: number;
  below: number;
  viewportHeight: number;
}

/** An element or a run of text, in reading order. */
export type PageItem =
  | {
    kind: "el";
    lid: number;
    tag: string;
    attrs: string[];
    states: string[];
    label: string;
    value?: string;
  }
  | { kind: "text"; text: string; heading?: number };

/** Options of {@link observeFrame}. */
export interface ObserveOptions {
  /** Extra band above and below the viewport, as a share of its height. */
  margin: number;
  /** Longest label or text run, in characters. */
  maxText: number;
}

/**
 * Lists the visible interactive elements and text of the document, in reading order, giving
 * each element a local ID that stays the same while the element is in the document.
 */
export function observeFrame(options: ObserveOptions): FrameObservation {
  type State = {
    token: string;
    next: number;
    ids: WeakMap<Element, number>;
    els: Map<number, WeakRef<Element>>;
  };
  const g = globalThis as unknown as { __browserAgent?: State };
  const state: State = g.__browserAgent ??= {
    token: Math.random().toString(36).slice(2, 10),
    next: 1,
    ids: new WeakMap(),
    els: new Map(),
  };
  const vh = innerHeight, vw = innerWidth;
  const band = vh * options.margin;
  const items: PageItem[] = [];
  let above = 0, below = 0;

  const clean = (s: string | null | undefined): string => (s ?? "").replace(/\s+/g, " ").trim();
  const cut = (s: string): string =>
    s.length > options.maxText ? s.slice(0, options.maxText - 1).trimEnd() + "…" : s;
  const quote = (s: string): string => JSON.stringify(cut(s));

  const ROLES = new Set([
    "button",
    "link",
    "checkbox",
    "radio",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "switch",
    "combobox",
    "textbox",
    "searchbox",
    "slider",
    "spinbutton",
    "treeitem",
    "listbox",
  ]);
  const styles = new Map<Element, CSSStyleDeclaration>();
  const style = (el: Element): CSSStyleDeclaration => {
    let s = styles.get(el);
    if (!s) styles.set(el, s = getComputedStyle(el));
    return s;
  };

  const isInteractive = (el: Element): boolean => {
    const tag = el.localName;
    if (tag === "a") return el.hasAttribute("href") || el.hasAttribute("onclick");
    if (tag === "button" || tag === "select" || tag === "textarea" || tag === "summary") {
      return true;
    }
    if (tag === "input") return (el as HTMLInputElement).type !== "hidden";
    const role = el.getAttribute("role");
    if (role && ROLES.has(role)) return true;
    if (el instanceof HTMLElement) {
      if (el.isContentEditable && !(el.parentElement?.isContentEditable)) return true;
      if (el.hasAttribute("onclick")) return true;
      const ti = el.getAttribute("tabindex");
      if (ti !== null && Number(ti) >= 0 && tag !== "body" && tag !== "html") return true;
    }
    if (style(el).cursor === "pointer") {
      const p = el.parentElement;
      return !p || style(p).cursor !== "pointer";
    }
    return false;
  };

  const textOf = (el: Element, ids: string): string => {
    const root = el.getRootNode() as Document | ShadowRoot;
    return clean(
      ids.split(/\s+/).map((id) => root.getElementById(id)?.textContent ?? "").join(" "),
    );
  };

  const labelOf = (el: Element): string => {
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      const t = textOf(el, by);
      if (t) return t;
    }
    const aria = clean(el.getAttribute("aria-label"));
    if (aria) return aria;
    const tag = el.localName;
    if (tag === "input" || tag === "select" || tag === "textarea") {
      const labels = (el as HTMLInputElement).labels;
      if (labels && labels.length > 0) {
        const t = clean(Array.from(labels, (l) => l.textContent ?? "").join(" "));
        if (t) return t;
      }
      const type = (el as HTMLInputElement).type;
      if (tag === "input" && (type === "submit" || type === "button" || type === "reset")) {
        return clean((el as HTMLInputElement).value);
      }
      return clean(el.getAttribute("title"));
    }
    if (tag === "img") return clean(el.getAttribute("alt") ?? el.getAttribute("title"));
    const text = clean(el.textContent);
    if (text) return text;
    const img = el.querySelector("img[alt], [aria-label], [title]");
    return clean(
      img?.getAttribute("alt") ?? img?.getAttribute("aria-label") ?? img?.getAttribute("title"),
    ) ||
      clean(el.getAttribute("title"));
  };

  const describe = (el: Element, lid: number): PageItem => {
    const tag = el.localName;
    const attrs: string[] = [];
    const states: string[] = [];
    const role = el.getAttribute("role");
    if (role && tag !== role) attrs.push(`role=${role}`);
    let label = labelOf(el);
    let value: string | undefined;
    if (tag === "input") {
      const input = el as HTMLInputElement;
      attrs.push(`type=${input.type}`);
      const ph = clean(input.placeholder);
      if (ph && ph !== label) attrs.push(`placeholder=${quote(ph)}`);
      if (input.type === "checkbox" || input.type === "radio") {
        label = `${input.checked ? "☑" : "☐"} ${label}`.trim();
      } else if (input.type === "password") {
        if (input.value) value = "••••••";
      } else if (
        !["submit", "button", "reset", "image", "file"].includes(input.type) && input.value
      ) {
        value = cut(input.value);
      }
      if (input.required) states.push("REQUIRED");
      if (input.readOnly) states.push("READONLY");
    } else if (tag === "textarea") {
      const ta = el as HTMLTextAreaElement;
      const ph = clean(ta.placeholder);
      if (ph && ph !== label) attrs.push(`placeholder=${quote(ph)}`);
      if (ta.value) value = cut(clean(ta.value));
      label = labelOf(el) === clean(ta.value) ? "" : label;
    } else if (tag === "select") {
      const sel = el as HTMLSelectElement;
      const opts = Array.from(sel.options);
      value = clean(sel.selectedOptions[0]?.textContent);
      const names = opts.slice(0, 8).map((o) => clean(o.textContent));
      attrs.push(
        `options=${quote(names.join("|") + (opts.length > 8 ? `|…${opts.length} in all` : ""))}`,
      );
      label = labelOf(el) === clean(el.textContent) ? "" : label;
    }
    const aChecked = el.getAttribute("aria-checked");
    if (aChecked === "true") states.push("CHECKED");
    else if (aChecked === "false") states.push("UNCHECKED");
    if (el.getAttribute("aria-selected") === "true") states.push("SELECTED");
    const exp = el.getAttribute("aria-expanded");
    if (exp === "true") states.push("EXPANDED");
    else if (exp === "false") states.push("COLLAPSED");
    if (el.getAttribute("aria-pressed") === "true") states.push("PRESSED");
    if ((el as HTMLButtonElement).disabled || el.getAttribute("aria-disabled") === "true") {
      states.push("DISABLED");
    }
    if (el.getAttribute("aria-invalid") === "true") states.push("INVALID");
    if (
      el.getRootNode() instanceof ShadowRoot
        ? (el.getRootNode() as ShadowRoot).activeElement === el
        : document.activeElement === el
    ) {
      states.push("FOCUSED");
    }
    const item: PageItem = { kind: "el", lid, tag, attrs, states, label: cut(label) };
    if (value !== undefined) item.value = value;
    return item;
  };

  const idFor = (el: Element): number => {
    let lid = state.ids.get(el);
    if (lid === undefined) {
      lid = state.next++;
      state.ids.set(el, lid);
      state.els.set(lid, new WeakRef(el));
    }
    return lid;
  };

  // Text runs are grouped by their nearest block-level ancestor.
  let runBlock: Element | null = null;
  let run = "";
  let runHeading = 0;
  const flush = () => {
    const t = clean(run);
    if (t) {
      items.push(
        runHeading
          ? { kind: "text", text: cut(t), heading: runHeading }
          : { kind: "text", text: cut(t) },
      );
    }
    run = "";
    runBlock = null;
    runHeading = 0;
  };
  const blockOf = (el: Element): Element => {
    let b: Element = el;
    while (b.parentElement && style(b).display.startsWith("inline")) b = b.parentElement;
    return b;
  };

  const inBand = (r: DOMRect): number => {
    if (r.bottom < -band) return -1;
    if (r.top > vh + band) return 1;
    return 0;
  };

  const SKIP = new Set([
    "script",
    "style",
    "noscript",
    "template",
    "head",
    "svg",
    "option",
    "datalist",
  ]);
  const walk = (root: Element | ShadowRoot, inControl: boolean) => {
    for (let node = root.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === Node.TEXT_NODE) {
        if (inControl) continue;
        const parent = node.parentElement;
        const t = node.textContent ?? "";
        if (!parent || !t.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const r = range.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || inBand(r) !== 0 || r.right < 0 || r.left > vw) {
          continue;
        }
        const block = blockOf(parent);
        if (block !== runBlock) {
          flush();
          runBlock = block;
          const h = /^h([1-6])$/.exec(block.localName);
          runHeading = h ? Number(h[1]) : 0;
        }
        run += t;
        continue;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) continue;
      const el = node as Element;
      if (SKIP.has(el.localName)) continue;
      if (!el.checkVisibility()) continue;
      if (el.localName === "label" && (el as HTMLLabelElement).control) {
        walk(el, true);
        continue;
      }
      let control = inControl;
      if (
        isInteractive(el) && el.checkVisibility({ opacityProperty: true, visibilityProperty: true })
      ) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) {
          const where = inBand(r);
          if (where < 0) above++;
          else if (where > 0) below++;
          else if (r.right > 0 && r.left < vw) {
            flush();
            items.push(describe(el, idFor(el)));
          }
          control = true;
        }
      }
      const shadow = (el as HTMLElement).shadowRoot;
      walk(shadow ?? el, control);
      if (runBlock === el) flush();
    }
  };
  if (document.body) walk(document.body, false);
  flush();
  return { token: state.token, items, above, below, viewportHeight: vh };
}

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
