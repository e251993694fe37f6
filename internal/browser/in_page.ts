/// <reference lib="dom" />
/**
 * The page walker: runs inside each frame, in puppeteer's isolated world, so page scripts that
 * replace `Array.prototype.map`, `getComputedStyle` or `querySelectorAll` cannot break or fool it.
 * It is serialised on its own by `evaluate`: it must not use anything from outside its own body.
 * The helpers it calls (names, roles, colours) are installed once per document on the isolated
 * world's `__browserAgentHelpers` global (`in_page_install.ts`); when they are missing or of
 * another version, it returns null and the caller installs them.
 *
 * One walk over the flat tree (open shadow roots and slots included) yields, in reading order, the
 * interactive elements and the text a person sees, for three uses: `observe` (the viewport band or
 * the whole page), `find` (matches anywhere) and `read` (the main text, long runs kept).
 *
 * @module
 */
import type {
  Box,
  Ctl,
  FrameWalk,
  Helpers,
  PageItem,
  Rgba,
  WalkOptions,
  WalkScope,
} from "./in_page_types.ts";

/**
 * Walks the document and lists visible interactive elements and text in reading order, giving
 * each element a local ID that stays the same while the element is in the document. Returns null
 * when this document's helpers are missing or not of version `o.helpers`.
 */
export function walkFrame(o: WalkOptions): FrameWalk | null {
  const t0 = performance.now();
  const H = (globalThis as unknown as { __browserAgentHelpers?: Helpers }).__browserAgentHelpers;
  if (!H || H.version !== o.helpers || !H.text || !H.roles || !H.paint || !H.describe) return null;
  const { clean, cut, norm } = H.text;
  const { implicitRole, interactive, isToggle, nameOf, selector, skip, leaf, frameId } = H.roles;
  const { rgba, rootBg, textHidden, contentBox, clipTo } = H.paint;
  const { describe: describeWith, finish: finishWith, begin, matches } = H.describe;
  // The same numbers as WHERE (this function cannot use anything outside its body).
  const IN_VIEW = 1, IN_DIALOG = 2, IN_FORM = 4;
  const observing = o.mode === "observe";
  const { state, seenBefore, added, wasHidden, nowHidden } = begin(observing);

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

  const query = o.query ? norm(o.query) : "";

  const { active, focusForm, modalEl } = H.roles.focusAndModal();
  const scope: WalkScope = { o, state, active, observing, seenBefore, added, wasHidden };
  const describe = (el: Element, role: string, where: number, y: number): Ctl =>
    describeWith(scope, el, role, where, y);
  const finish = (c: Ctl) => finishWith(scope, c);

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
    bg: Rgba | null;
    cursor: boolean;
    where: number;
    hidden: boolean;
  };

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
    if (textHidden(parent, r, ctx.bg)) return;
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
    if (skip.has(tag) || el === state.overlay) return;
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
      if (!isToggle(el)) return;
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
        if (isToggle(el)) {
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
        const n = (interactive(el, s, ctx.cursor) ? 1 : 0) + el.querySelectorAll(selector).length;
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
      const fid = frameId(el);
      if (!control) flush();
      const box = contentBox(el, r);
      items.push({ kind: "frame", fid, where: whereOf(r, ctx), y: (r.top - view.top) / vh, box });
      return;
    }
    if (leaf.has(tag)) {
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
        clip = clipTo(clip, r, overflowX, overflowY);
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

  const result = o.mode === "find"
    ? items.filter((it) => it.kind !== "el" || matches(it, query, o.role))
    : items;
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
