/// <reference lib="dom" />
/**
 * In-page helpers for actions and settling, run in puppeteer's isolated world. Each function is
 * serialised on its own: it must not use anything from outside its own body.
 *
 * @module
 */

/**
 * Waits until the document has loaded and the DOM stayed unchanged for `quietMs` (and, with
 * `untilNotBusy`, no loading indicator shows), or `capMs` passed. True when it got quiet.
 */
export function waitForDomQuiet(
  quietMs: number,
  capMs: number,
  untilNotBusy: boolean,
): Promise<boolean> {
  const busy = (): boolean => {
    const el = document.querySelector('[aria-busy="true"], [role="progressbar"], progress');
    if (el?.checkVisibility({ visibilityProperty: true })) return true;
    const text = document.body?.innerText ?? "";
    return /(^|\n)[ \t]*(loading|please wait|загрузка|chargement|cargando|carregando|caricamento|wird geladen|laden|加载中|読み込み中)[ \t]*(\.\.\.|…)?[ \t]*(\n|$)/i
      .test(text);
  };
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (quiet: boolean) => {
      observer.disconnect();
      clearTimeout(timer);
      clearTimeout(cap);
      resolve(quiet);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (document.readyState === "loading" || (untilNotBusy && busy())) arm();
        else done(true);
      }, quietMs);
    };
    const observer = new MutationObserver(arm);
    observer.observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    const cap = setTimeout(() => done(false), capMs);
    arm();
  });
}

/** How long this document's DOM has been unchanged, and whether it is still loading or busy. */
export interface DomIdle {
  /** Milliseconds since the last DOM change seen (since the first call, in a new document). */
  idleMs: number;
  loading: boolean;
  /** A loading indicator shows; only checked when asked and the DOM has been idle `quietMs`. */
  busy: boolean;
}

/**
 * Reports how long the DOM has been unchanged, watching it from the first call on in this
 * document (a MutationObserver that only records the time of the last change).
 */
export function domIdle(quietMs: number, checkBusy: boolean): DomIdle {
  type Tracker = { last: number; observer: MutationObserver };
  const g = globalThis as unknown as { __browserAgentIdle?: Tracker };
  let tracker = g.__browserAgentIdle;
  if (!tracker) {
    const t: Tracker = {
      last: performance.now(),
      observer: new MutationObserver(() => {
        t.last = performance.now();
      }),
    };
    t.observer.observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    g.__browserAgentIdle = tracker = t;
  }
  const idleMs = performance.now() - tracker.last;
  let busy = false;
  if (checkBusy && idleMs >= quietMs) {
    const el = document.querySelector('[aria-busy="true"], [role="progressbar"], progress');
    busy = el?.checkVisibility({ visibilityProperty: true }) ?? false;
    if (!busy) {
      const text = document.body?.innerText ?? "";
      busy =
        /(^|\n)[ \t]*(loading|please wait|загрузка|chargement|cargando|carregando|caricamento|wird geladen|laden|加载中|読み込み中)[ \t]*(\.\.\.|…)?[ \t]*(\n|$)/i
          .test(text);
    }
  }
  return { idleMs, loading: document.readyState === "loading", busy };
}

/** Where a scroll went: pixels moved, pixels left in that direction, and what scrolled. */
export interface ScrollResult {
  moved: number;
  left: number;
  /** "the page", or a short description of the scrolled container. */
  what: string;
}

/**
 * Scrolls by a share of a screen (`screens`, negative is up): the scroll container around `el`
 * (itself included) when given, else the page, else the largest scrollable area on screen.
 */
export function scrollBy(el: Element | null, screens: number): ScrollResult {
  const root = document.scrollingElement ?? document.documentElement;
  const scrollable = (e: Element): boolean => {
    if (e === root) return true;
    const s = getComputedStyle(e);
    return /(auto|scroll|overlay)/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1;
  };
  const canMove = (e: Element) =>
    screens > 0 ? e.scrollTop + e.clientHeight < e.scrollHeight - 1 : e.scrollTop > 0;
  let box: Element = root;
  if (el) {
    let p: Element | null = el;
    while (p && !scrollable(p)) {
      p = p.parentElement ?? ((p.getRootNode() as ShadowRoot).host ?? null);
    }
    box = p ?? root;
  } else if (!canMove(root)) {
    let best: Element | undefined, area = 0;
    for (const e of Array.from(document.querySelectorAll("*"))) {
      if (e === root || e === document.body || !scrollable(e) || !canMove(e)) continue;
      const r = e.getBoundingClientRect();
      const a = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)) * r.width;
      if (a > area) [best, area] = [e, a];
    }
    if (best) box = best;
  }
  const isPage = box === root || box === document.body;
  const height = isPage ? innerHeight : box.clientHeight;
  const before = box.scrollTop;
  box.scrollBy({ top: height * screens, behavior: "instant" });
  const moved = box.scrollTop - before;
  const left = screens > 0 ? box.scrollHeight - box.clientHeight - box.scrollTop : box.scrollTop;
  let what = "the page";
  if (!isPage) {
    const label = box.getAttribute("aria-label") ?? box.id ?? "";
    what = `the scrollable <${box.localName}>${label ? ` "${label}"` : ""}`;
  }
  return { moved: Math.round(moved), left: Math.max(0, Math.round(left)), what };
}

/** Scrolls `el` to the middle of its scroll containers; true when it is now in the viewport. */
export function revealElement(el: Element): boolean {
  el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  const r = el.getBoundingClientRect();
  return r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
}

/** Where a click on an element can land, in the coordinates of its frame. */
export type ClickPoint =
  /** `rect` is the top-left of the element's bounding box, to convert to page coordinates. */
  | { ok: true; x: number; y: number; rect: { x: number; y: number } }
  | { ok: false; reason: "invisible" | "offscreen"; detail: string }
  | { ok: false; reason: "covered"; detail: string; x: number; y: number };

/**
 * Scrolls `el` into view if needed and finds a point where a real click lands on it (or on its
 * label); when every tried point is covered, describes what covers the centre.
 */
export function clickPointOf(el: Element): ClickPoint {
  const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
  const inView = (r: DOMRect) =>
    r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  let rects = Array.from(el.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
  if (rects.length === 0) {
    return { ok: false, reason: "invisible", detail: "it has no size on screen" };
  }
  if (!inView(rects[0]!)) {
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    rects = Array.from(el.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
  }
  const r = rects[0];
  if (!r) return { ok: false, reason: "invisible", detail: "it has no size on screen" };
  const left = Math.max(r.left, 0), right = Math.min(r.right, innerWidth);
  const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
  if (right - left < 1 || bottom - top < 1) {
    return { ok: false, reason: "offscreen", detail: "it is outside the visible area" };
  }
  const deepHit = (x: number, y: number): Element | null => {
    let hit = document.elementFromPoint(x, y);
    while (hit?.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  };
  const lands = (hit: Element | null): boolean => {
    for (let n: Node | null = hit; n; n = n.parentNode ?? (n as ShadowRoot).host ?? null) {
      if (n === el) return true;
      if (n instanceof HTMLLabelElement && n.control === el) return true;
    }
    if (el instanceof HTMLLabelElement && hit !== null && el.control === hit) return true;
    return false;
  };
  const cx = (left + right) / 2, cy = (top + bottom) / 2;
  const tries: [number, number][] = [[cx, cy]];
  for (const fx of [0.25, 0.75]) {
    for (const fy of [0.3, 0.7]) {
      tries.push([left + (right - left) * fx, top + (bottom - top) * fy]);
    }
  }
  const bounds = el.getBoundingClientRect();
  for (const [x, y] of tries) {
    if (lands(deepHit(x, y))) return { ok: true, x, y, rect: { x: bounds.left, y: bounds.top } };
  }
  let cover = deepHit(cx, cy);
  if (!cover) return { ok: false, reason: "offscreen", detail: "nothing is drawn at its place" };
  // Name the whole overlay (the outermost fixed or modal ancestor), not an inner span of it.
  for (let p: Element | null = cover; p; p = p.parentElement) {
    const s = getComputedStyle(p);
    if (
      s.position === "fixed" || s.position === "sticky" || p.getAttribute("role") === "dialog" ||
      p.localName === "dialog"
    ) {
      cover = p;
    }
  }
  const id = cover.id ? ` id="${cover.id}"` : "";
  const cls = !id && typeof cover.className === "string" && cover.className.trim()
    ? ` class="${clean(cover.className).split(" ").slice(0, 2).join(" ")}"`
    : "";
  const text = clean((cover as HTMLElement).innerText ?? cover.textContent).slice(0, 60);
  return {
    ok: false,
    reason: "covered",
    detail: `<${cover.localName}${id}${cls}>${text ? ` "${text}"` : ""}`,
    x: cx,
    y: cy,
  };
}

/** What kind of field `el` is, for typing into it. */
export type FieldKind =
  | "keyboard" // text-like input or textarea: typed with the keyboard
  | "value" // date, time, color, range…: the value is set, as a picker would
  | "editable" // contenteditable element
  | "other";

/** Focuses a field and selects its contents, as a user's click + select-all would. */
export function prepareField(el: Element, clear: boolean): { kind: FieldKind; hadText: boolean } {
  const SET_BY_VALUE = new Set([
    "date",
    "time",
    "datetime-local",
    "month",
    "week",
    "color",
    "range",
  ]);
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    el.focus();
    if (el instanceof HTMLInputElement && SET_BY_VALUE.has(el.type)) {
      return { kind: "value", hadText: el.value.length > 0 };
    }
    const hadText = el.value.length > 0;
    if (clear) el.select();
    else {
      try {
        el.setSelectionRange(el.value.length, el.value.length);
      } catch {
        // email and number inputs have no selection API: the caret is already at the end.
      }
    }
    return { kind: "keyboard", hadText };
  }
  if (el instanceof HTMLElement && el.isContentEditable) {
    el.focus();
    const range = document.createRange();
    range.selectNodeContents(el);
    if (!clear) range.collapse(false);
    const sel = getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
    return { kind: "editable", hadText: (el.textContent ?? "").length > 0 };
  }
  return { kind: "other", hadText: false };
}

/** Sets a field's value as a picker would, firing `input` and `change`; returns the value now. */
export function setFieldValue(el: Element, value: string): string {
  if (!(el instanceof HTMLInputElement)) return "";
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
  setter?.call(el, value);
  el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  el.dispatchEvent(new Event("change", { bubbles: true }));
  return el.value;
}

/**
 * Picks the option of a native `<select>` whose visible text (or value) matches `wanted`:
 * exact first, then a prefix, then a part. Fires `input` and `change` like a user's choice.
 */
export function chooseNativeOption(
  el: Element,
  wanted: string,
): { ok: true; text: string } | { ok: false; options: string[] } {
  if (!(el instanceof HTMLSelectElement)) return { ok: false, options: [] };
  const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
  const w = norm(wanted);
  const options = Array.from(el.options).filter((o) => !o.disabled);
  const pick = options.find((o) => norm(o.text) === w) ?? options.find((o) => o.value === wanted) ??
    options.find((o) => norm(o.text).startsWith(w)) ??
    options.find((o) => norm(o.text).includes(w));
  if (!pick || !w) return { ok: false, options: options.map((o) => o.text.trim()) };
  if (el.multiple) pick.selected = true;
  else el.value = pick.value;
  el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  el.dispatchEvent(new Event("change", { bubbles: true }));
  return { ok: true, text: pick.text.trim() };
}

/**
 * Finds the visible option of a custom listbox, combobox or menu that matches `wanted` (exact,
 * prefix, then part of its text); looks in the popup the element controls, else the document.
 * Remembers the visible option texts for {@link lastSeenOptions}.
 */
export function findCustomOption(el: Element, wanted: string): Element | null {
  const norm = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim().toLowerCase();
  const root = el.getRootNode() as Document | ShadowRoot;
  const scopes: ParentNode[] = [];
  for (const attr of ["aria-controls", "aria-owns"]) {
    for (const id of (el.getAttribute(attr) ?? "").split(/\s+/).filter(Boolean)) {
      const s = root.getElementById(id) ?? document.getElementById(id);
      if (s) scopes.push(s);
    }
  }
  if (el.getAttribute("role") === "listbox" || el.getAttribute("role") === "menu") scopes.push(el);
  scopes.push(document);
  const SELECTOR =
    '[role="option"], [role="menuitem"], [role="menuitemradio"], [role="menuitemcheckbox"], [role="treeitem"], li, [data-value]';
  const w = norm(wanted);
  for (const scope of scopes) {
    const found = Array.from(scope.querySelectorAll(SELECTOR)).filter((o) =>
      o !== el && o.checkVisibility({ visibilityProperty: true }) &&
      o.getAttribute("aria-disabled") !== "true"
    );
    const text = (o: Element) => norm((o as HTMLElement).innerText ?? o.textContent);
    const pick = found.find((o) => text(o) === w) ??
      found.find((o) => norm(o.getAttribute("data-value")) === w) ??
      found.find((o) => text(o).startsWith(w)) ?? found.find((o) => text(o).includes(w));
    (globalThis as { __browserAgentOptions?: string[] }).__browserAgentOptions = found
      .map((o) => ((o as HTMLElement).innerText ?? "").replace(/\s+/g, " ").trim())
      .filter(Boolean).slice(0, 30);
    if (pick && w) return pick;
    if (found.length > 0 && scope !== document) return null;
  }
  return null;
}

/** The option texts {@link findCustomOption} saw last in this frame. */
export function lastSeenOptions(): string[] {
  return (globalThis as { __browserAgentOptions?: string[] }).__browserAgentOptions ?? [];
}

/** Whether `el` is a native `<select>`, a file input, or something else, for `select`/`upload`. */
export function controlKind(el: Element): "select" | "file" | "other" {
  if (el instanceof HTMLSelectElement) return "select";
  if (el instanceof HTMLInputElement && el.type === "file") return "file";
  return "other";
}

/** The file input a label, wrapper or drop zone stands for, if there is exactly one. */
export function fileInputFor(el: Element): Element | null {
  if (el instanceof HTMLLabelElement && el.control instanceof HTMLInputElement) {
    return el.control.type === "file" ? el.control : null;
  }
  const inside = el.querySelectorAll('input[type="file"]');
  return inside.length === 1 ? inside[0]! : null;
}
