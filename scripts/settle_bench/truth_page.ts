/// <reference lib="dom" />
/**
 * The ground truth of the settle benchmark, in the page's own world and independent of the
 * agent's runtime: a log of every DOM change with the element it touched, and a snapshot of
 * what a person sees (visible text, field values, control states, visible controls).
 *
 * Each export is self-contained: puppeteer serialises it on its own, so it uses nothing from
 * outside its body. Elements are named by their path from the root element (child indexes,
 * `s` for a shadow root, `f<k>:` for the k-th same-origin frame), so a name survives the
 * element being replaced and means the same place in another load of the same page.
 * Elements marked `[data-bg]` (a generated page's own background activity) are listed as such,
 * and the change log leaves out what happens inside them.
 *
 * @module
 */

/** What a person sees at one moment: one entry per fact, keyed `kind|path`. */
export interface Snapshot {
  /** `performance.timeOrigin + performance.now()` when it was taken: comparable across worlds. */
  at: number;
  url: string;
  /**
   * `t|path`: the element's own visible text; `v|path`: a visible field's value or checked
   * state; `s|path`: a visible element's states (disabled, aria-*); `e|path`: a visible control,
   * its colours and whether it is in the viewport.
   */
  items: Record<string, string>;
  /** The visible text in document order: each text node's path (its element's) and text. */
  segments: [string, string][];
  /** Paths of the elements marked `[data-bg]`: the page's own background activity. */
  bg: string[];
}

/**
 * Starts the change log of this document (once): every DOM change and every input event, with
 * the time and the path of the element it touched, newest 20,000 kept. Changes the parser makes
 * while the document loads are logged as `(parse)`; a person's input and scrolling as `(pointerup)`,
 * `(keyup)`, `(scroll)`.
 */
export function installChangeLog(): void {
  const w = window as unknown as { __settleTruth?: { log: [number, string][] } };
  if (w.__settleTruth) return;
  const log: [number, string][] = [];
  w.__settleTruth = { log };
  const now = () => performance.timeOrigin + performance.now();
  const pathOf = (node: Node | null): string | null => {
    const parts: string[] = [];
    let n: Node | null = node;
    while (n && n.nodeType !== 1) n = n.parentNode;
    let el = n as Element | null;
    if (el?.closest("[data-bg]")) return null;
    while (el && el !== document.documentElement) {
      const parent: Node | null = el.parentNode;
      if (!parent) return null;
      if (parent.nodeType === 11) {
        const root = parent as ShadowRoot;
        parts.push(`s${Array.prototype.indexOf.call(root.children, el)}`);
        el = root.host;
      } else {
        parts.push(String(Array.prototype.indexOf.call((parent as Element).children, el)));
        el = parent as Element;
      }
    }
    return el ? parts.reverse().join("/") : null;
  };
  const add = (path: string | null) => {
    if (path === null) return;
    log.push([now(), path]);
    if (log.length > 20000) log.splice(0, 5000);
  };
  const observer = new MutationObserver((records) => {
    if (document.readyState === "loading") {
      add("(parse)");
      return;
    }
    for (const r of records) {
      add(pathOf(r.target));
      if (r.type !== "childList") continue;
      for (const n of Array.from(r.addedNodes)) if (n.nodeType === 1) add(pathOf(n));
    }
  });
  observer.observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
  for (const type of ["input", "change"]) {
    addEventListener(type, (e) => add(pathOf(e.composedPath()[0] as Node)), true);
  }
  // The moments the action reaches the page: a person's input, and scrolling.
  for (const type of ["pointerup", "keyup", "scroll"]) {
    addEventListener(type, (e) => {
      if (type === "scroll" || e.isTrusted) add(`(${type})`);
    }, true);
  }
}

/** The change log's entries from `from` to `to` (epoch ms), oldest first. */
export function changeLog(from: number, to: number): [number, string][] {
  const w = window as unknown as { __settleTruth?: { log: [number, string][] } };
  return (w.__settleTruth?.log ?? []).filter(([t]) => t >= from && t <= to);
}

/** What a person sees now (see {@link Snapshot}). */
export function takeSnapshot(): Snapshot {
  const items: Record<string, string> = {};
  const segments: [string, string][] = [];
  const bg: string[] = [];
  const INTERACTIVE = "a[href],button,input,select,textarea,summary,[contenteditable='']," +
    "[contenteditable=true],[tabindex],[onclick],[role=button],[role=link],[role=checkbox]," +
    "[role=radio],[role=tab],[role=menuitem],[role=option],[role=switch],[role=combobox]," +
    "[role=textbox],[role=slider],[role=spinbutton]";
  const STATES = ["aria-checked", "aria-selected", "aria-expanded", "aria-pressed"];
  const FIELD_SKIP = new Set(["hidden", "submit", "button", "reset", "image"]);
  type Box = { left: number; top: number; right: number; bottom: number };
  const clean = (s: string) => s.replace(/\s+/g, " ").trim();
  const walk = (
    el: Element,
    path: string,
    clip: Box,
    opacity: number,
    view: Box,
    prefix: string,
  ) => {
    if (el.hasAttribute("data-bg")) bg.push(prefix + path);
    const style = getComputedStyle(el);
    if (style.display === "none") return;
    const alpha = opacity * Number(style.opacity || "1");
    if (alpha === 0) return;
    const r = el.getBoundingClientRect();
    const key = prefix + path;
    // A fixed box escapes the clipping of its ancestors (no transformed ancestor assumed).
    if (style.position === "fixed") clip = { left: -1e9, top: -1e9, right: 1e9, bottom: 1e9 };
    const inside = {
      left: Math.max(r.left, clip.left),
      top: Math.max(r.top, clip.top),
      right: Math.min(r.right, clip.right),
      bottom: Math.min(r.bottom, clip.bottom),
    };
    const shown = style.visibility === "visible" && style.contentVisibility !== "hidden" &&
      inside.right - inside.left > 1 && inside.bottom - inside.top > 1;
    if (shown) {
      let own = "";
      for (const n of Array.from(el.childNodes)) if (n.nodeType === 3) own += n.textContent;
      own = clean(own);
      if (own) items[`t|${key}`] = own;
      const tag = el.localName;
      if (tag === "input" || tag === "textarea" || tag === "select") {
        const f = el as HTMLInputElement;
        if (!FIELD_SKIP.has(f.type)) {
          items[`v|${key}`] = f.type === "checkbox" || f.type === "radio"
            ? (f.checked ? "checked" : "unchecked")
            : tag === "select"
            ? Array.from((el as HTMLSelectElement).selectedOptions).map((o) => o.text).join(",")
            : f.value;
        }
      }
      const states: string[] = [];
      if ((el as HTMLInputElement).disabled) states.push("disabled");
      if ((el as HTMLInputElement).readOnly) states.push("readonly");
      if (el.getAttribute("aria-disabled") === "true") states.push("aria-disabled");
      if ((el as HTMLDetailsElement).open && (tag === "details" || tag === "dialog")) {
        states.push("open");
      }
      for (const a of STATES) {
        const v = el.getAttribute(a);
        if (v !== null) states.push(`${a}=${v}`);
      }
      if (states.length > 0) items[`s|${key}`] = states.join(" ");
      if (el.matches(INTERACTIVE)) {
        const inView = r.bottom > view.top && r.top < view.bottom && r.right > view.left &&
          r.left < view.right;
        items[`e|${key}`] = `${tag} ${style.backgroundColor} ${style.color}` +
          (inView ? " in view" : "");
      }
    }
    let inner = clip;
    // The root's and the body's overflow belong to the viewport: they clip nothing here.
    const root = el === el.ownerDocument.documentElement || el === el.ownerDocument.body;
    if (!root && (style.overflowX !== "visible" || style.overflowY !== "visible")) {
      inner = {
        left: Math.max(clip.left, r.left),
        top: Math.max(clip.top, r.top),
        right: Math.min(clip.right, r.right),
        bottom: Math.min(clip.bottom, r.bottom),
      };
    }
    let i = 0;
    for (const n of Array.from(el.childNodes)) {
      if (n.nodeType === 1) {
        walk(n as Element, path ? `${path}/${i}` : String(i), inner, alpha, view, prefix);
        i++;
      } else if (
        n.nodeType === 3 && shown && el.localName !== "style" &&
        el.localName !== "script"
      ) {
        const text = clean(n.textContent ?? "");
        if (text) segments.push([key, text]);
      }
    }
    if (el.shadowRoot) {
      const sk = Array.from(el.shadowRoot.children);
      for (let i = 0; i < sk.length; i++) {
        walk(sk[i]!, path ? `${path}/s${i}` : `s${i}`, inner, alpha, view, prefix);
      }
    }
    if (el.localName === "iframe" && shown) {
      try {
        const doc = (el as HTMLIFrameElement).contentDocument;
        if (doc?.documentElement) {
          const k = Array.from(document.querySelectorAll("iframe")).indexOf(
            el as HTMLIFrameElement,
          );
          const fw = doc.defaultView!;
          const fv = { left: 0, top: 0, right: fw.innerWidth, bottom: fw.innerHeight };
          const all = { left: -1e9, top: -1e9, right: 1e9, bottom: 1e9 };
          walk(doc.documentElement, "", all, alpha, fv, `f${k}:`);
        }
      } catch { /* a cross-origin frame: not ours to read */ }
    }
  };
  const everywhere = { left: -1e9, top: -1e9, right: 1e9, bottom: 1e9 };
  const view = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
  if (document.documentElement) walk(document.documentElement, "", everywhere, 1, view, "");
  const at = performance.timeOrigin + performance.now();
  return { at, url: location.href, items, segments, bg };
}
