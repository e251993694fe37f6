/// <reference lib="dom" />
/**
 * The page walker: runs inside each frame, in puppeteer's isolated world, so page scripts that
 * replace `Array.prototype.map`, `getComputedStyle` or `querySelectorAll` cannot break or fool it.
 * It is serialised on its own by `evaluate`: it must not use anything from outside its own body.
 *
 * One walk over the flat tree (open shadow roots and slots included) yields, in reading order, the
 * interactive elements and the text a person sees, for three uses: `observe` (the viewport band or
 * the whole page), `find` (matches anywhere) and `read` (the main text, long runs kept).
 *
 * @module
 */

/** A rectangle in the frame's viewport coordinates. */
export interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Options of {@link walkFrame}. */
export interface WalkOptions {
  mode: "observe" | "find" | "read";
  /** `viewport`: the visible band plus `margin`; `page`: the whole document. */
  scope: "viewport" | "page";
  /** Extra band above and below the visible area, as a share of the viewport height. */
  margin: number;
  /** Longest text run, in characters. */
  maxText: number;
  /** Longest element label, in characters. */
  maxLabel: number;
  /** Part of this frame's viewport that is visible in the top page (child frames); null: all. */
  clip: Box | null;
  /** The band to list (visible part plus margin) in a child frame; null: from `clip` and `margin`. */
  band: Box | null;
  /** find: the text to look for (normalised and lower-cased by the caller). */
  query?: string;
  /** find: only elements of this role. */
  role?: string;
}

/** Where an item is; bit flags. */
export const WHERE = {
  /** Inside the visible area (not only in the margin band). */
  viewport: 1,
  /** Inside the open modal dialog. */
  dialog: 2,
  /** Inside the form that holds the focus. */
  form: 4,
} as const;

/** An element, a run of text, or the place of a child frame, in reading order. */
export type PageItem =
  | {
    kind: "el";
    lid: number;
    tag: string;
    role: string;
    attrs: string[];
    states: string[];
    label: string;
    value?: string;
    /** New since the previous observation of this document (added or revealed). */
    fresh?: boolean;
    where: number;
    /** Top edge relative to the visible area's top, in viewport heights. */
    y: number;
  }
  | { kind: "text"; text: string; heading?: number; where: number; y: number }
  | { kind: "frame"; fid: number; where: number; y: number; box: Box };

/** What one frame's walk returns. */
export interface FrameWalk {
  /** Random per-document token: local IDs are only meaningful with it. */
  token: string;
  items: PageItem[];
  /** Interactive elements outside the observed band, by direction. */
  above: number;
  below: number;
  /** Screens of document above and below the visible area. */
  screensAbove: number;
  screensBelow: number;
  /** Scroll containers in view whose hidden part holds interactive elements. */
  scrollers: { name: string; more: number }[];
  /** A modal dialog is open: items outside it are behind it (inert). */
  modal: boolean;
  /** The document was observed before (so `fresh` marks mean something). */
  seenBefore: boolean;
  /** The frame's viewport size. */
  width: number;
  height: number;
  /** Milliseconds spent in the page. */
  ms: number;
}

/**
 * Walks the document and lists visible interactive elements and text in reading order, giving
 * each element a local ID that stays the same while the element is in the document.
 */
export function walkFrame(o: WalkOptions): FrameWalk {
  const t0 = performance.now();
  // The same numbers as WHERE (this function cannot use anything outside its body).
  const IN_VIEW = 1, IN_DIALOG = 2, IN_FORM = 4;
  type State = {
    token: string;
    next: number;
    ids: WeakMap<Element, number>;
    els: Map<number, WeakRef<Element>>;
    observed: number;
    added: Set<Node>;
    hidden: WeakSet<Element>;
    mo?: MutationObserver;
    overlay?: Element;
  };
  const g = globalThis as unknown as { __browserAgent?: State };
  const state: State = g.__browserAgent ??= {
    token: Math.random().toString(36).slice(2, 10),
    next: 1,
    ids: new WeakMap(),
    els: new Map(),
    observed: 0,
    added: new Set(),
    hidden: new WeakSet(),
  };
  const observing = o.mode === "observe";
  // What was added to the document or hidden at the last observation tells which elements are new.
  if (observing && !state.mo) {
    state.mo = new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) state.added.add(n);
    });
    state.mo.observe(document, { childList: true, subtree: true });
  }
  if (state.mo) {
    for (const r of state.mo.takeRecords()) for (const n of r.addedNodes) state.added.add(n);
  }
  const seenBefore = state.observed > 0;
  const added = state.added;
  const wasHidden = state.hidden;
  const nowHidden = new WeakSet<Element>();
  if (observing) {
    state.observed++;
    state.added = new Set();
    state.hidden = nowHidden;
  }

  const vh = innerHeight || 1, vw = innerWidth || 1;
  const view: Box = o.clip ?? { top: 0, left: 0, bottom: vh, right: vw };
  const pageScope = o.scope === "page";
  const band = vh * o.margin;
  const bandTop = pageScope ? -Infinity : o.band ? o.band.top : view.top - band;
  const bandBottom = pageScope ? Infinity : o.band ? o.band.bottom : view.bottom + band;
  const sx = scrollX, sy = scrollY;
  const items: PageItem[] = [];
  let above = 0, below = 0;
  const scrollers: { name: string; more: number }[] = [];

  const clean = (s: string | null | undefined): string => (s ?? "").replace(/\s+/g, " ").trim();
  const cut = (s: string, n: number): string =>
    s.length > n ? s.slice(0, n - 1).trimEnd() + "…" : s;
  const norm = (s: string): string =>
    clean(s).normalize("NFKC").toLowerCase().normalize("NFD").replace(/\p{M}/gu, "");
  const query = o.query ? norm(o.query) : "";

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
    "gridcell",
  ]);
  const SKIP = new Set([
    "script",
    "style",
    "noscript",
    "template",
    "head",
    "meta",
    "link",
    "title",
    "option",
    "optgroup",
    "datalist",
    "br",
    "wbr",
  ]);
  const LEAF = new Set([
    "input",
    "select",
    "textarea",
    "img",
    "video",
    "audio",
    "canvas",
    "object",
    "embed",
    "svg",
    "math",
    "iframe",
    "frame",
    "progress",
    "meter",
  ]);

  // ---- the open modal dialog and the focused form ----
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  if (active === document.body || active === document.documentElement) active = null;
  const focusForm = active?.closest("form, [role=form], [role=search]") ?? null;
  let modalEl: Element | null = null;
  for (const d of document.querySelectorAll("dialog, [role=dialog], [role=alertdialog]")) {
    const modal = d.localName === "dialog"
      ? d.matches(":modal")
      : d.getAttribute("aria-modal") === "true" || d.getAttribute("role") === "alertdialog";
    if (!modal || !d.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const r = d.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) modalEl = d;
  }

  // ---- colours: text the same colour as what is behind it is hidden ----
  const rgba = (c: string): [number, number, number, number] | null => {
    const m = /rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:[,/] ?([\d.]+)(%?))?\)/.exec(c);
    if (!m) return null;
    let a = m[4] === undefined ? 1 : Number(m[4]);
    if (m[5]) a /= 100;
    return [Number(m[1]), Number(m[2]), Number(m[3]), a];
  };
  const lum = (c: [number, number, number, number]): number => {
    const f = (v: number) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const contrast = (
    a: [number, number, number, number],
    b: [number, number, number, number],
  ): number => {
    const la = lum(a), lb = lum(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  };
  /** The colour actually painted under a point (in the viewport), or null for an image. */
  const paintedAt = (
    x: number,
    y: number,
    self: Element,
  ): [number, number, number, number] | null => {
    for (const e of document.elementsFromPoint(x, y)) {
      const s = getComputedStyle(e);
      if (e !== self && /^(img|video|canvas|svg|picture|iframe|object|embed)$/.test(e.localName)) {
        return null;
      }
      if (s.backgroundImage !== "none") return null;
      const c = rgba(s.backgroundColor);
      if (c && c[3] > 0.5) return c;
    }
    return [255, 255, 255, 1];
  };

  /** Off screen: does a positioned picture or panel next to the text's ancestors paint behind it? */
  const paintedBeside = (el: Element): boolean => {
    let a: Element | null = el;
    for (let depth = 0; a && depth < 4; depth++, a = a.parentElement) {
      for (
        let sib: Element | null | undefined = a.parentElement?.firstElementChild;
        sib;
        sib = sib.nextElementSibling
      ) {
        if (sib === a) continue;
        const s = getComputedStyle(sib);
        if (s.position !== "absolute" && s.position !== "fixed") continue;
        if (/^(img|video|picture|canvas|svg)$/.test(sib.localName)) return true;
        const c = rgba(s.backgroundColor);
        if (s.backgroundImage !== "none" || (c && c[3] > 0.5)) return true;
      }
    }
    return false;
  };

  const range = document.createRange();
  type Ctx = {
    /** Element whose box groups text into one line. */
    block: Element | null;
    /** Table cell the text is in, to join a row's cells with " | ". */
    cell: Element | null;
    heading: number;
    /** Innermost listed control: text below it becomes its label. */
    control: Ctl | null;
    /** Visible region (overflow clipping), and the one in force at the nearest positioned ancestor. */
    clip: Box | null;
    posClip: Box | null;
    /** Index in `scrollers` of the scroll container that made `clip`, or -1. */
    scroller: number;
    /** Effective background colour (null: an image or unknown). */
    bg: [number, number, number, number] | null;
    cursor: boolean;
    where: number;
    hidden: boolean;
  };
  type Ctl = { item: PageItem & { kind: "el" }; el: Element; buf: string; sr: string };

  // ---- text runs, grouped by their block ----
  let runBlock: Element | null = null;
  let runCell: Element | null = null;
  let run = "";
  let runHeading = 0;
  let runWhere = 0;
  let runY = 0;
  const flush = () => {
    const t = clean(run);
    // Runs of bare punctuation between links (", ", "|", "·") carry nothing a person reads.
    if (t && /[\p{L}\p{N}]/u.test(t) && (o.mode !== "find" || norm(t).includes(query))) {
      const text = cut(t, o.maxText);
      items.push(
        runHeading
          ? { kind: "text", text, heading: runHeading, where: runWhere, y: runY }
          : { kind: "text", text, where: runWhere, y: runY },
      );
    }
    run = "";
    runBlock = null;
    runCell = null;
    runHeading = 0;
  };

  const intersects = (r: Box, c: Box | null) =>
    !c || (r.bottom > c.top && r.top < c.bottom && r.right > c.left && r.left < c.right);
  const offPage = (r: Box) => r.right + sx < 0 || r.bottom + sy < 0;
  const whereOf = (r: Box, ctx: Ctx): number =>
    ctx.where | (r.bottom > view.top && r.top < view.bottom && r.right > view.left &&
        r.left < view.right
      ? IN_VIEW
      : 0);

  const textOfIds = (el: Element, ids: string): string => {
    const root = el.getRootNode() as Document | ShadowRoot;
    let out = "";
    for (const id of ids.split(/\s+/)) {
      const t = id ? root.getElementById(id) : null;
      if (t) out += " " + ((t as HTMLElement).innerText || t.textContent || "");
    }
    return clean(out);
  };

  const implicitRole = (el: Element): string => {
    const r = el.getAttribute("role");
    if (r) return r.split(" ")[0]!;
    switch (el.localName) {
      case "a":
        return "link";
      case "button":
      case "summary":
        return "button";
      case "select":
        return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1
          ? "listbox"
          : "combobox";
      case "textarea":
        return "textbox";
      case "input": {
        const t = (el as HTMLInputElement).type;
        if (t === "checkbox" || t === "radio") return t;
        if (t === "range") return "slider";
        if (t === "number") return "spinbutton";
        if (t === "search") return "searchbox";
        if (["button", "submit", "reset", "image", "file", "color"].includes(t)) return "button";
        return el.hasAttribute("list") ? "combobox" : "textbox";
      }
    }
    return (el as HTMLElement).isContentEditable ? "textbox" : "generic";
  };

  /** How an element is interactive: 2 natively or by role, 1 by heuristics, 0 not. */
  const interactive = (el: Element, s: CSSStyleDeclaration, parentPointer: boolean): number => {
    const tag = el.localName;
    if (tag === "a") return el.hasAttribute("href") ? 2 : el.hasAttribute("onclick") ? 1 : 0;
    if (tag === "button" || tag === "select" || tag === "textarea") return 2;
    if (tag === "summary") return el.parentElement?.localName === "details" ? 2 : 0;
    if (tag === "input") return (el as HTMLInputElement).type === "hidden" ? 0 : 2;
    const role = el.getAttribute("role");
    if (role && ROLES.has(role)) return 2;
    const h = el as HTMLElement;
    if (h.isContentEditable) return el.parentElement?.isContentEditable ? 0 : 2;
    if (tag === "label") {
      // A label drawn in place of a control that is not rendered (custom toggles) is what gets clicked.
      const c = (el as HTMLLabelElement).control;
      return c && !c.checkVisibility() ? 2 : 0;
    }
    if (tag === "body" || tag === "html") return 0;
    if (
      el.hasAttribute("onclick") || el.hasAttribute("jsaction") || el.hasAttribute("ng-click") ||
      el.hasAttribute("@click") || el.hasAttribute("v-on:click")
    ) {
      return 1;
    }
    const ti = el.getAttribute("tabindex");
    if (ti !== null && Number(ti) >= 0) return 1;
    if (s.cursor === "pointer" && !parentPointer) return 1;
    return 0;
  };

  const isHiddenInput = (el: Element) =>
    el.localName === "input" && /^(checkbox|radio)$/.test((el as HTMLInputElement).type);

  const describe = (el: Element, role: string, where: number, y: number): Ctl => {
    const tag = el.localName;
    const attrs: string[] = [];
    const states: string[] = [];
    const explicitRole = el.getAttribute("role");
    if (explicitRole && tag !== explicitRole) attrs.push(`role=${explicitRole}`);
    let value: string | undefined;
    const h = el as HTMLElement;
    if (tag === "input") {
      const input = el as HTMLInputElement;
      attrs.push(`type=${input.type}`);
      if (input.type === "password") {
        if (input.value) value = "••••••";
      } else if (input.type === "checkbox" || input.type === "radio") {
        if (input.indeterminate) states.push("MIXED");
      } else if (
        !["submit", "button", "reset", "image", "file"].includes(input.type) && input.value
      ) {
        value = cut(input.value, o.maxLabel);
      }
      if (input.readOnly) states.push("READONLY");
    } else if (tag === "textarea") {
      const ta = el as HTMLTextAreaElement;
      if (ta.value) value = cut(clean(ta.value), o.maxLabel);
      if (ta.readOnly) states.push("READONLY");
    } else if (tag === "select") {
      const sel = el as HTMLSelectElement;
      const opts = sel.options;
      const names: string[] = [];
      for (let i = 0; i < opts.length && i < 6; i++) names.push(clean(opts[i]!.textContent));
      attrs.push(
        `options=${
          JSON.stringify(
            cut(names.join("|"), 100) + (opts.length > 6 ? `|…${opts.length} in all` : ""),
          )
        }`,
      );
      const chosen: string[] = [];
      for (const opt of sel.selectedOptions) chosen.push(clean(opt.textContent));
      if (chosen.length) value = cut(chosen.join(", "), o.maxLabel);
    } else if (h.isContentEditable) {
      attrs.push("contenteditable");
    }
    if (role === "slider" || role === "spinbutton" || role === "progressbar") {
      const now = el.getAttribute("aria-valuetext") ?? el.getAttribute("aria-valuenow");
      if (now !== null && value === undefined) value = now;
    }
    if (
      (tag === "input" || tag === "select" || tag === "textarea") &&
        (el as HTMLInputElement).required || el.getAttribute("aria-required") === "true"
    ) {
      states.push("REQUIRED");
    }
    const aChecked = el.getAttribute("aria-checked");
    if (aChecked === "true") states.push("CHECKED");
    else if (aChecked === "false") states.push("UNCHECKED");
    else if (aChecked === "mixed") states.push("MIXED");
    if (el.getAttribute("aria-selected") === "true") states.push("SELECTED");
    const exp = el.getAttribute("aria-expanded");
    if (exp === "true") states.push("EXPANDED");
    else if (exp === "false") states.push("COLLAPSED");
    else if (tag === "summary") {
      states.push((el.parentElement as HTMLDetailsElement).open ? "EXPANDED" : "COLLAPSED");
    }
    const pressed = el.getAttribute("aria-pressed");
    if (pressed === "true") states.push("PRESSED");
    const current = el.getAttribute("aria-current");
    if (current && current !== "false") states.push("CURRENT");
    if (
      ((tag === "button" || tag === "input" || tag === "select" || tag === "textarea") &&
        el.matches(":disabled")) || el.getAttribute("aria-disabled") === "true"
    ) {
      states.push("DISABLED");
    }
    if (el.getAttribute("aria-invalid") === "true" || el.matches(":user-invalid")) {
      states.push("INVALID");
    }
    if (el === active) states.push("FOCUSED");
    const lid = idFor(el);
    const item: PageItem & { kind: "el" } = {
      kind: "el",
      lid,
      tag,
      role,
      attrs,
      states,
      label: "",
      where,
      y,
    };
    if (value !== undefined) item.value = value;
    if (observing && seenBefore && isFresh(el)) item.fresh = true;
    return { item, el, buf: "", sr: "" };
  };

  /** Fills in a control's label once its subtree was walked (accessible-name order). */
  const finish = (c: Ctl) => {
    const { el, item } = c;
    const tag = el.localName;
    let label = "";
    const by = el.getAttribute("aria-labelledby");
    if (by) label = textOfIds(el, by);
    if (!label) label = clean(el.getAttribute("aria-label"));
    const field = tag === "input" || tag === "select" || tag === "textarea";
    if (!label && field) {
      const labels = (el as HTMLInputElement).labels;
      if (labels) {
        // The label's own text: not the text of the control it wraps (a select's options).
        let t = "";
        for (const l of labels) {
          const tw = document.createTreeWalker(l, NodeFilter.SHOW_TEXT);
          for (let n = tw.nextNode(); n; n = tw.nextNode()) {
            const p = n.parentElement;
            if (p && (el.contains(p) || p.closest("select, textarea, option, script, style"))) {
              continue;
            }
            t += " " + (n as Text).data;
          }
        }
        label = clean(t);
      }
      const type = (el as HTMLInputElement).type;
      if (!label && tag === "input" && /^(submit|button|reset)$/.test(type)) {
        label = clean((el as HTMLInputElement).value) || (type === "submit" ? "Submit" : "");
      }
      if (!label && type === "image") label = clean(el.getAttribute("alt"));
    }
    if (!label && tag === "img") label = clean(el.getAttribute("alt"));
    const editable = (el as HTMLElement).isContentEditable;
    if (!label && !field && !editable) label = clean(c.buf);
    if (editable && c.buf && item.value === undefined) item.value = cut(clean(c.buf), o.maxLabel);
    if (!label) label = clean(el.getAttribute("title"));
    const ph = clean(el.getAttribute("placeholder") ?? el.getAttribute("aria-placeholder"));
    if (!label && ph) label = ph;
    else if (ph && ph !== label) item.attrs.push(`placeholder=${JSON.stringify(cut(ph, 60))}`);
    if (!label && !field) label = clean(c.sr);
    if (!label && tag === "a") {
      const href = el.getAttribute("href") ?? "";
      if (href && !href.startsWith("javascript:")) {
        item.attrs.push(`href=${JSON.stringify(cut(href.replace(/^https?:\/\/[^/]+/, ""), 50))}`);
      }
    }
    const box = tag === "label" ? (el as HTMLLabelElement).control : el;
    if (box?.localName === "input") {
      const type = (box as HTMLInputElement).type;
      if (type === "checkbox" || type === "radio") {
        label = `${(box as HTMLInputElement).checked ? "☑" : "☐"} ${label}`.trim();
      }
    }
    item.label = cut(label, o.maxLabel);
  };

  const isFresh = (el: Element): boolean => {
    for (let n: Node | null = el; n; n = n.parentNode ?? (n as ShadowRoot).host ?? null) {
      if (added.has(n) || (n instanceof Element && wasHidden.has(n))) return true;
      if (n === document.body) break;
    }
    return false;
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

  const SEL =
    "a[href],button,input:not([type=hidden]),select,textarea,summary,[role=button],[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option],[role=switch],[role=combobox],[role=textbox],[role=slider],[onclick],[tabindex]:not([tabindex='-1'])";

  const nameOf = (el: Element): string =>
    cut(
      clean(
        el.getAttribute("aria-label") ??
          (el.id ? el.id : el.getAttribute("role") ?? el.localName),
      ),
      40,
    );

  const textNode = (node: Text, ctx: Ctx) => {
    const data = node.data;
    if (!/\S/.test(data)) return;
    if (ctx.hidden) return;
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return;
    if (!intersects(r, ctx.clip) || offPage(r)) return;
    // Text in a box clipped to a few pixels (height: 2px; overflow: hidden) is not readable.
    const c0 = ctx.clip;
    if (c0 && Math.min(r.bottom, c0.bottom) - Math.max(r.top, c0.top) < 4) return;
    const inBand = r.bottom > bandTop && r.top < bandBottom;
    if (!inBand) return;
    if (!pageScope && (r.right < view.left || r.left > view.right)) return;
    const parent = node.parentElement ?? (node.parentNode as ShadowRoot | null)?.host;
    if (!parent) return;
    const s = getComputedStyle(parent);
    const color = rgba(s.color);
    if (!color || color[3] < 0.1 || parseFloat(s.fontSize) < 5 || r.height < 4) return;
    if (Number(s.opacity) < 0.1) return;
    if (ctx.bg && contrast(color, ctx.bg) < 1.25) {
      // Same colour as the background the DOM gives it: where it is on screen, check what is
      // really painted behind it (a positioned picture or panel); elsewhere trust the DOM.
      const x = r.left + Math.min(r.width, 8) / 2, y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x >= vw || y >= vh) {
        if (!paintedBeside(parent)) return;
      } else {
        const under = paintedAt(x, y, parent);
        if (under && contrast(color, under) < 1.25) return;
      }
    }
    const c = ctx.control;
    if (c) {
      if (c.buf.length < o.maxLabel + 40) c.buf += data;
      return;
    }
    if (o.mode === "find" && !query) return;
    const block = ctx.block;
    if (block !== runBlock) {
      flush();
      runBlock = block;
      runHeading = ctx.heading;
      runWhere = whereOf(r, ctx);
      runY = (r.top - view.top) / vh;
    } else if (ctx.cell !== runCell && runCell && ctx.cell) {
      run += " | ";
    }
    runCell = ctx.cell;
    run += data;
  };

  const walk = (root: ParentNode, ctx: Ctx) => {
    for (let node = root.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === 3) {
        textNode(node as Text, ctx);
        continue;
      }
      if (node.nodeType !== 1) continue;
      element(node as Element, ctx);
    }
  };

  const element = (el: Element, ctx: Ctx) => {
    const tag = el.localName;
    if (SKIP.has(tag) || el === state.overlay) return;
    if (tag === "slot") {
      const assigned = (el as HTMLSlotElement).assignedNodes();
      if (assigned.length === 0) walk(el, ctx);
      else {
        for (const n of assigned) {
          if (n.nodeType === 3) textNode(n as Text, ctx);
          else if (n.nodeType === 1) element(n as Element, ctx);
        }
      }
      return;
    }
    const s = getComputedStyle(el);
    const display = s.display;
    if (display === "none") {
      if (observing) nowHidden.add(el);
      return;
    }
    if (s.contentVisibility === "hidden" || Number(s.opacity) === 0) {
      if (observing) nowHidden.add(el);
      if (!isHiddenInput(el)) return;
    }
    const position = s.position;
    const contents = display === "contents";
    const r = contents ? null : el.getBoundingClientRect();
    // Clipped away or pushed off the page: nothing inside is seen.
    const overflowX = s.overflowX, overflowY = s.overflowY;
    const clips = overflowX !== "visible" || overflowY !== "visible";
    let clip = position === "fixed" ? null : position === "absolute" ? ctx.posClip : ctx.clip;
    if (r) {
      const tiny = r.width <= 1 || r.height <= 1;
      if (
        (tiny && clips) || offPage(r) ||
        (s.clip !== "auto" && position === "absolute" && (r.width <= 2 || r.height <= 2)) ||
        /^inset\(50%/.test(s.clipPath)
      ) {
        if (isHiddenInput(el)) {
          hiddenInput(el, ctx);
        } else if (ctx.control) {
          const t = el.textContent;
          if (t && ctx.control.sr.length < 80) ctx.control.sr += " " + t;
        }
        return;
      }
      if (!intersects(r, clip) && r.width > 0 && r.height > 0 && ctx.scroller < 0) {
        if (position !== "fixed" && position !== "absolute" && clips) return;
      }
      // Out of the band: count what is inside instead of walking it.
      if (
        !pageScope && r.height > 0 && (r.bottom < bandTop || r.top > bandBottom) &&
        position !== "fixed" && position !== "sticky" && o.mode === "observe"
      ) {
        const n = (interactive(el, s, ctx.cursor) ? 1 : 0) + el.querySelectorAll(SEL).length;
        if (r.bottom < bandTop) above += n;
        else below += n;
        return;
      }
    }
    const isFrame = tag === "iframe" || tag === "frame";
    const visible = s.visibility === "visible";
    const kind = visible && r && o.mode !== "read" ? interactive(el, s, ctx.cursor) : 0;
    let control = ctx.control;
    let where = ctx.where;
    if (el === modalEl) where |= IN_DIALOG;
    if (el === focusForm) where |= IN_FORM;
    if (kind && r) {
      // Script-clickable containers as big as the screen are layout, not controls.
      const big = kind === 1 && (r.width * r.height > vw * vh * 0.4 || r.height > vh * 0.9);
      const sized = r.width > 0 && r.height > 0;
      if (!big && sized) {
        if (!intersects(r, clip)) {
          if (ctx.scroller >= 0 && o.mode === "observe") {
            const sc = scrollers[ctx.scroller]!;
            sc.more++;
          }
        } else if (r.bottom <= bandTop) above++;
        else if (r.top >= bandBottom) below++;
        else if (!pageScope && (r.right <= view.left || r.left >= view.right)) {
          // beside the visible area of a frame: not seen
        } else {
          if (!control) flush();
          const c = describe(
            el,
            implicitRole(el),
            whereOf(r, { ...ctx, where }),
            (r.top - view.top) / vh,
          );
          control = c;
          if (o.mode !== "read") items.push(c.item);
        }
      }
    }
    if (isFrame && visible && r && r.width > 0 && r.height > 0 && o.mode !== "read") {
      const frames = (globalThis as unknown as {
        __browserAgentFrames?: { ids: WeakMap<Element, number>; next: number };
      }).__browserAgentFrames ??= { ids: new WeakMap(), next: 1 };
      let fid = frames.ids.get(el);
      if (fid === undefined) frames.ids.set(el, fid = frames.next++);
      if (!control) flush();
      const cs = getComputedStyle(el);
      const left = r.left + el.clientLeft + parseFloat(cs.paddingLeft);
      const top = r.top + el.clientTop + parseFloat(cs.paddingTop);
      const box = {
        left,
        top,
        right: left + el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
        bottom: top + el.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom),
      };
      items.push({ kind: "frame", fid, where: whereOf(r, ctx), y: (r.top - view.top) / vh, box });
      return;
    }
    if (LEAF.has(tag)) {
      if (ctx.control && tag === "img") {
        const alt = clean(el.getAttribute("alt"));
        if (alt) ctx.control.buf += " " + alt;
      } else if (ctx.control && tag === "svg") {
        const t = clean(el.getAttribute("aria-label") ?? el.querySelector("title")?.textContent);
        if (t) ctx.control.sr += " " + t;
      }
      if (control && control !== ctx.control) finish(control);
      return;
    }
    // Children's context.
    let scroller = ctx.scroller;
    if (clips && r && r.width > 0 && r.height > 0) {
      const scrollable = /auto|scroll/.test(overflowX + overflowY) &&
        (el.scrollHeight > el.clientHeight + 4 || el.scrollWidth > el.clientWidth + 4) &&
        tag !== "body" && tag !== "html";
      if (!(scrollable && pageScope)) {
        const c: Box = clip
          ? {
            top: Math.max(clip.top, r.top),
            left: Math.max(clip.left, r.left),
            bottom: Math.min(clip.bottom, r.bottom),
            right: Math.min(clip.right, r.right),
          }
          : { top: r.top, left: r.left, bottom: r.bottom, right: r.right };
        if (overflowX === "visible") {
          c.left = clip?.left ?? -Infinity;
          c.right = clip?.right ?? Infinity;
        }
        if (overflowY === "visible") {
          c.top = clip?.top ?? -Infinity;
          c.bottom = clip?.bottom ?? Infinity;
        }
        clip = c;
        if (scrollable) {
          scroller = scrollers.length;
          scrollers.push({ name: nameOf(el), more: 0 });
        } else scroller = -1;
      }
    }
    const inline = contents || display.startsWith("inline") || display === "ruby";
    const cell = display === "table-cell";
    let heading = ctx.heading;
    const hm = /^h([1-6])$/.exec(tag);
    if (hm) heading = Number(hm[1]);
    else if (el.getAttribute("role") === "heading") {
      heading = Number(el.getAttribute("aria-level")) || 2;
    }
    const child: Ctx = {
      block: inline || cell ? ctx.block : el,
      cell: cell ? el : ctx.cell,
      heading: inline || cell ? ctx.heading : heading,
      control: tag === "label" && (el as HTMLLabelElement).control && control === ctx.control
        ? labelSink
        : control,
      clip,
      posClip: position === "static" ? ctx.posClip : clip,
      scroller,
      bg: ctx.bg,
      cursor: s.cursor === "pointer",
      where,
      hidden: !visible,
    };
    if (s.backgroundImage !== "none") child.bg = null;
    else {
      const bg = rgba(s.backgroundColor);
      if (bg && bg[3] > 0.5) child.bg = bg;
    }
    const shadow = (el as HTMLElement).shadowRoot;
    walk(shadow ?? el, child);
    if (control && control !== ctx.control) finish(control);
    if (!inline && runBlock === el) flush();
  };

  /** A checkbox or radio drawn by its label: listed at the label's place, clicked by script. */
  const hiddenInput = (el: Element, ctx: Ctx) => {
    const labels = (el as HTMLInputElement).labels;
    const label = labels?.[0];
    if (!label || !label.checkVisibility({ visibilityProperty: true })) return;
    const r = label.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || !intersects(r, ctx.clip)) return;
    if (r.bottom <= bandTop) above++;
    else if (r.top >= bandBottom) below++;
    else {
      if (!ctx.control) flush();
      const c = describe(el, implicitRole(el), whereOf(r, ctx), (r.top - view.top) / vh);
      finish(c);
      if (o.mode !== "read") items.push(c.item);
    }
  };

  // Text inside a <label> that names a control belongs to that control's label, not the page text.
  const labelSink: Ctl = {
    item: {
      kind: "el",
      lid: 0,
      tag: "label",
      role: "",
      attrs: [],
      states: [],
      label: "",
      where: 0,
      y: 0,
    },
    el: document.documentElement,
    buf: "",
    sr: "",
  };

  const rootBg = (): [number, number, number, number] => {
    for (const e of [document.body, document.documentElement]) {
      if (!e) continue;
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0.5) return c;
      if (getComputedStyle(e).backgroundImage !== "none") return [255, 255, 255, 0];
    }
    return [255, 255, 255, 1];
  };
  const bg0 = rootBg();
  if (document.body) {
    const clip0 = pageScope ? null : o.clip;
    walk(document.body, {
      block: document.body,
      cell: null,
      heading: 0,
      control: null,
      clip: clip0,
      posClip: clip0,
      scroller: -1,
      bg: bg0[3] === 0 ? null : bg0,
      cursor: false,
      where: 0,
      hidden: false,
    });
  }
  flush();

  let result = items;
  if (o.mode === "find") {
    result = [];
    for (const it of items) {
      if (it.kind === "text" || it.kind === "frame") result.push(it);
      else if (it.kind === "el") {
        if (o.role && it.role !== o.role && !(o.role === "textbox" && it.role === "searchbox")) {
          continue;
        }
        const hay = norm(`${it.label} ${it.value ?? ""} ${it.attrs.join(" ")}`);
        if (!query || hay.includes(query)) result.push(it);
      }
    }
  }
  const doc = document.scrollingElement ?? document.documentElement;
  const screensBelow = Math.max(0, (doc.scrollHeight - sy - vh) / vh);
  const screensAbove = Math.max(0, sy / vh);
  return {
    token: state.token,
    items: result,
    above,
    below,
    screensAbove,
    screensBelow,
    scrollers: scrollers.filter((sc) => sc.more > 0),
    modal: modalEl !== null,
    seenBefore,
    width: vw,
    height: vh,
    ms: performance.now() - t0,
  };
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

/** The number of an `<iframe>` element, as the walker's frame items give it (assigned here first if new). */
export function frameIdOf(el: Element): number {
  const frames = (globalThis as unknown as {
    __browserAgentFrames?: { ids: WeakMap<Element, number>; next: number };
  }).__browserAgentFrames ??= { ids: new WeakMap(), next: 1 };
  let fid = frames.ids.get(el);
  if (fid === undefined) frames.ids.set(el, fid = frames.next++);
  return fid;
}
