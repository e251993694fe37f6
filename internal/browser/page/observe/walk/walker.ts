/// <reference lib="dom" />
/**
 * The walk over one document's flat tree (open shadow roots and slots included): each element
 * is checked for being seen, listed when it is a control in the band, and entered with the
 * context its children need; text nodes go to the control they label or to the text runs.
 *
 * @module
 */
import { frameId } from "../../core/dom.ts";
import { contentBox, intersects, rootBg, textHidden } from "../paint.ts";
import {
  implicitRole,
  interactive,
  INTERACTIVE_SELECTOR,
  isToggle,
  LEAF,
  NOT_TEXT,
} from "../../core/roles.ts";
import { isLigature } from "../icon_names.ts";
import {
  type Box,
  type ElementItem,
  type HiddenMatch,
  type PageItem,
  type Scroller,
  WHERE,
} from "../../../shared/walk_types.ts";
import { describe, finish } from "./describe.ts";
import { childContext, clipOf, isInline, labelSink } from "./child_context.ts";
import { isWrapper, leafName, partName } from "./wrappers.ts";
import { scrollBoxItem } from "./scroll_box.ts";
import { holdsFocus } from "../focus.ts";
import { handMarks, operability } from "../operations.ts";
import { apartBox } from "../delegates.ts";
import { hiddenMatch } from "./hidden.ts";
import { isPicture, placePicture } from "./pictures.ts";
import { drawnBox, noteDrawing } from "./drawn.ts";
import { listDrawing } from "./svg_parts.ts";
import { noteLayer } from "./covered.ts";
import { type Ctl, type Ctx, offPage, type WalkScope, whereOf, yOf } from "./scope.ts";
import { notePlaced } from "../../core/reads.ts";
import { listLabelToggle } from "./label_toggle.ts";
import type { SubtreeReuse } from "./reuse.ts";
import { gap, keeps, TextRuns } from "./text_runs.ts";
import { TEXT_ROLES } from "./block_roles.ts";
import { clippedAway, clippedToNothing } from "../../core/visually_hidden.ts";

/** Walks one document and collects its items and what lies outside the band. */
export class FrameWalker {
  /** Elements, text runs and frames, in reading order. */
  readonly items: PageItem[] = [];
  /** Interactive elements above and below the band. */
  above = 0;
  below = 0;
  /** Scroll containers met, with how many controls their hidden part holds. */
  readonly scrollers: Scroller[] = [];
  /** find: matches in collapsed or hidden parts. */
  readonly hidden: HiddenMatch[] = [];
  /** find: the element behind each element item (for the controls beside a text match). */
  readonly found = new Map<ElementItem, Element>();
  readonly #w: WalkScope;
  /** The text runs (find: with the block of each text item). */
  readonly runs: TextRuns;
  readonly #range = document.createRange();
  /** Text inside a `<label>` that names a control belongs to that control, not to the page text. */
  readonly #labelSink: Ctl;
  /** Incremental observation: earlier walks' results of unchanged subtrees (observe only). */
  readonly #reuse: SubtreeReuse | null;
  /** The last element found to be a root that delegates every event (its children know it). */
  #root: Element | null = null;

  constructor(w: WalkScope, reuse: SubtreeReuse | null = null) {
    this.#w = w;
    this.#reuse = reuse;
    this.runs = new TextRuns(w, this.items);
    this.#labelSink = labelSink();
  }

  /** Walks the document's body. */
  run(): void {
    const w = this.#w;
    const bg = rootBg();
    if (document.body) {
      const clip = w.pageScope ? null : w.o.clip;
      this.#children(document.body, {
        block: document.body,
        cell: null,
        heading: 0,
        nest: 0,
        control: null,
        owner: null,
        clip,
        posClip: clip,
        scroller: -1,
        bg: bg[3] === 0 ? null : bg,
        cursor: getComputedStyle(document.body).cursor,
        where: 0,
        hidden: false,
      });
    }
    this.runs.flush();
  }

  #children(root: ParentNode, ctx: Ctx): void {
    for (let node = root.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === 3) this.#text(node as Text, ctx);
      else if (node.nodeType === 1) this.#element(node as Element, ctx);
    }
  }

  #text(node: Text, ctx: Ctx): void {
    const w = this.#w;
    const data = node.data;
    if (ctx.hidden) return;
    if (!/\S/.test(data)) {
      // read: white space inside kept text (code's indentation between highlighted words).
      if (w.o.mode === "read" && !ctx.control) this.runs.blank(data, ctx, node);
      return;
    }
    this.#range.selectNodeContents(node);
    const r = this.#range.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return;
    this.#reuse?.seen(r);
    const c = ctx.control;
    // Text pushed out of sight (text-indent: -9999px) or clipped to a few pixels is not
    // readable; inside a control, it is what a screen reader names the control by.
    const c0 = ctx.clip;
    if (
      !intersects(r, c0) || offPage(w, r) ||
      (c0 && Math.min(r.bottom, c0.bottom) - Math.max(r.top, c0.top) < 4)
    ) {
      if (c && c.sr.length < 80) c.sr += " " + data;
      return;
    }
    if (r.bottom <= w.bandTop || r.top >= w.bandBottom) return;
    if (!w.pageScope && (r.right < w.view.left || r.left > w.view.right)) return;
    const parent = node.parentElement ?? (node.parentNode as ShadowRoot | null)?.host;
    if (!parent || textHidden(parent, r, ctx.bg)) return;
    if (c) {
      if (c.buf.length < w.o.maxLabel + 40) {
        c.buf += gap(c.last, c.buf, node) + data;
        c.last = node;
      }
      return;
    }
    if (w.o.mode === "find" && !w.query && !TEXT_ROLES.has(w.o.role ?? "")) return;
    this.runs.add(data, ctx, r, node, w.o.mode === "read" ? keeps(parent) : undefined);
  }

  #element(el: Element, ctx: Ctx): void {
    const w = this.#w;
    const tag = el.localName;
    if (NOT_TEXT.has(tag) || el === w.state.overlay) return;
    if (tag === "slot") return this.#slot(el as HTMLSlotElement, ctx);
    // An icon font's word inside a control is its icon's name, not its text (icon_names.ts).
    if (ctx.control && isLigature(el)) return;
    this.#reuse?.met(el);
    const s = getComputedStyle(el);
    const display = s.display;
    if (display === "none") {
      if (w.observing) this.#hide(el);
      else if (w.query && w.o.mode === "find") this.#hiddenMatch(el);
      return;
    }
    if (s.contentVisibility === "hidden" || Number(s.opacity) === 0) {
      if (w.observing) this.#hide(el);
      else if (w.query && w.o.mode === "find") this.#hiddenMatch(el);
      if (!isToggle(el)) return;
    }
    if (s.visibility !== "visible" && !ctx.hidden && w.query && w.o.mode === "find") {
      this.#hiddenMatch(el);
    }
    const position = s.position;
    if (position !== "static" && position !== "relative") {
      notePlaced(el);
      noteLayer(el);
    }
    const r = display === "contents" ? null : el.getBoundingClientRect();
    if (r) this.#reuse?.seen(r);
    const clips = s.overflowX !== "visible" || s.overflowY !== "visible";
    const clip = position === "fixed" ? null : position === "absolute" ? ctx.posClip : ctx.clip;
    if (r && this.#unseen(el, s, r, ctx, clip, clips)) return;
    let where = ctx.where;
    if (el === w.modalEl) where |= WHERE.dialog;
    if (el === w.focusForm) where |= WHERE.form;
    const control = r ? this.#listed(el, s, r, ctx, clip, where) : ctx.control;
    if (control && control === ctx.control && tag !== "svg") partName(el, control);
    if (
      (tag === "iframe" || tag === "frame") && s.visibility === "visible" && r &&
      r.width > 0 && r.height > 0 && w.o.mode !== "read"
    ) {
      if (!control) this.runs.flush();
      this.items.push({
        kind: "frame",
        fid: frameId(el),
        where: whereOf(w, r, ctx.where),
        y: yOf(w, r),
        box: contentBox(el, r),
      });
      return;
    }
    if (tag === "svg" && r) {
      const own = control && control !== ctx.control ? control : null;
      if (listDrawing(w, this, el, r, { ...ctx, clip }, own, where)) return;
    }
    if (!control && r) {
      noteDrawing(w, this.runs, this.items, el, r, ctx);
      const box = drawnBox(w, el, r, where);
      if (box) this.items.push(box);
    }
    // read: a text area's text is page text, its lines kept.
    if (tag === "textarea" && w.o.mode === "read" && r && s.visibility === "visible") {
      return this.runs.field((el as HTMLTextAreaElement).value, ctx, r);
    }
    if (LEAF.has(tag) || (!control && isPicture(el))) {
      leafName(el, ctx.control);
      if (control && control !== ctx.control) this.#finish(control);
      else if (!control && r) placePicture(w, this.runs, this.items, el, s, r, ctx, clip, where);
      return;
    }
    if (tag === "details" && w.query && w.o.mode === "find" && !(el as HTMLDetailsElement).open) {
      for (const part of el.children) if (part.localName !== "summary") this.#hiddenMatch(part);
    }
    const own: Ctx = { ...ctx, clip, control, where }, listed = control !== ctx.control;
    if (this.#root === el) own.delegated = true;
    if (!this.#reuse) this.#descend(el, s, r, own, listed);
    else {
      const descend = () => this.#descend(el, s, r, own, listed);
      this.#reuse.inside(this, this.runs, el, s, r, own, descend);
    }
    if (control && control !== ctx.control) this.#finish(control);
  }

  /**
   * Completes a control's item once its subtree was walked. A control that only wraps others
   * (no text of its own) is dropped when a script or a role made it one and it shows no state
   * (`<li role=menuitem><a href>…</a></li>`): one real control is listed once. One listed by an
   * operating sign alone (`operations.ts`) is dropped unless named or as small as a knob.
   */
  #finish(c: Ctl): void {
    finish(this.#w, c);
    const it = c.item;
    // The focus inside it on no line of its own (a widget's hidden input): the control has it.
    if (!it.states.includes("FOCUSED") && holdsFocus(c.el, this.#w.active)) {
      const shown = this.items.slice(c.index + 1).some((i) =>
        i.kind === "el" && i.states.includes("FOCUSED")
      );
      if (!shown) it.states.push("FOCUSED");
    }
    if (!isWrapper(c) || this.items[c.index] !== it) return;
    this.items.splice(c.index, 1);
    // The one control it wraps is what a person drags or double-clicks: it takes the marks.
    const inner = this.items[c.index];
    if (c.inner === 1 && inner?.kind === "el") handMarks(it, inner);
  }

  /** find: counts the query's matches inside a hidden element, with the control that shows it. */
  #hiddenMatch(el: Element): void {
    const m = hiddenMatch(this.#w, el);
    if (!m) return;
    const same = this.hidden.find((h) => h.lid === m.lid);
    if (same) same.count += m.count;
    else this.hidden.push(m);
  }

  /** Notes an element found hidden: shown by the next observation, it is marked new. */
  #hide(el: Element): void {
    if (this.#reuse) this.#reuse.hid(el);
    else this.#w.nowHidden.add(el);
  }

  /** A slot: the nodes assigned to it, else its fallback content. */
  #slot(el: HTMLSlotElement, ctx: Ctx): void {
    const walk = () => {
      const assigned = el.assignedNodes();
      if (assigned.length === 0) return this.#children(el, ctx);
      for (const n of assigned) {
        if (n.nodeType === 3) this.#text(n as Text, ctx);
        else if (n.nodeType === 1) this.#element(n as Element, ctx);
      }
    };
    if (this.#reuse) this.#reuse.within(el, walk);
    else walk();
  }

  /**
   * Handles an element nothing of which is seen here: clipped away, pushed off the page, or
   * (observing) outside the band, where its controls are counted instead. True when the walk
   * does not enter it.
   */
  #unseen(
    el: Element,
    s: CSSStyleDeclaration,
    r: DOMRect,
    ctx: Ctx,
    clip: Box | null,
    clips: boolean,
  ): boolean {
    const w = this.#w;
    const position = s.position;
    if (clippedAway(s, r, w.sx, w.sy)) {
      // A part collapsed to no height or pushed off the page may be opened (a menu): find
      // reports what it holds with the control that opens it. Screen-reader text is not one.
      if (
        w.query && w.o.mode === "find" && !clippedToNothing(s, r) && r.width > 2 &&
        (r.height > 2 || clips)
      ) {
        this.#hiddenMatch(el);
      }
      if (isToggle(el)) {
        listLabelToggle(w, this, el, ctx);
      } else if (ctx.control) {
        const t = el.textContent;
        if (t && ctx.control.sr.length < 80) ctx.control.sr += " " + t;
      }
      return true;
    }
    if (!intersects(r, clip) && r.width > 0 && r.height > 0 && ctx.scroller < 0) {
      if (position !== "fixed" && position !== "absolute" && clips) return true;
    }
    // Out of the band: count what is inside instead of walking it (inside a scroll panel, it is
    // walked: what lies out of the panel's view is counted as the panel's).
    if (
      !w.pageScope && ctx.scroller < 0 && r.height > 0 &&
      (r.bottom < w.bandTop || r.top > w.bandBottom) &&
      position !== "fixed" && position !== "sticky" && w.o.mode === "observe"
    ) {
      const n = (interactive(el, s, ctx.cursor === "pointer") ? 1 : 0) +
        el.querySelectorAll(INTERACTIVE_SELECTOR).length;
      if (r.bottom < w.bandTop) this.above += n;
      else this.below += n;
      return true;
    }
    return false;
  }

  /**
   * Lists `el` when it is a control inside the band (else counts it where it is); returns the
   * control that text below `el` labels.
   */
  #listed(
    el: Element,
    s: CSSStyleDeclaration,
    r: DOMRect,
    ctx: Ctx,
    clip: Box | null,
    where: number,
  ): Ctl | null {
    const w = this.#w;
    const parent = ctx.owner;
    // A link inside a tab or option that says it is only presentation is that control's part.
    if (parent && /^(presentation|none)$/.test(el.getAttribute("role") ?? "")) {
      return ctx.control;
    }
    const op = s.visibility === "visible" && w.o.mode !== "read"
      ? operability(el, s, ctx.cursor, w.listened.get(el) ?? 0, !!ctx.control, w.o.maxLabel)
      : null;
    if (op?.root) this.#root = el;
    // A child of a container that operates its children is a control of its own, and so is a
    // box drawn apart inside a root that delegates every event.
    const part = op && ctx.control?.parts?.has(el) ? ctx.control : null;
    const boxed = !!op && !op.kind && !part && !!ctx.delegated && !ctx.control &&
      apartBox(el, s, r, ctx.bg, w.o.maxLabel, w.vw * w.vh * 0.4);
    const kind = op?.kind || (part || boxed ? 1 : 0);
    if (!kind) return ctx.control;
    // Script-clickable containers as big as the screen are layout, not controls (unless their
    // children are what the script operates: they are listed).
    const big = kind === 1 && !op?.parts &&
      (r.width * r.height > w.vw * w.vh * 0.4 || r.height > w.vh * 0.9);
    if (big || r.width <= 0 || r.height <= 0) return ctx.control;
    const sc = ctx.scroller >= 0 ? this.scrollers[ctx.scroller]! : null;
    if (sc) sc.total++;
    if (!intersects(r, clip)) {
      if (sc && w.o.mode === "observe") {
        if (r.bottom <= clip!.top || r.right <= clip!.left) sc.above++;
        else sc.below++;
      }
    } else if (r.bottom <= w.bandTop) this.above++;
    else if (r.top >= w.bandBottom) this.below++;
    else if (!w.pageScope && (r.right <= w.view.left || r.left >= w.view.right)) {
      // beside the visible area of a frame: not seen
    } else {
      if (!ctx.control) this.runs.flush();
      const c = describe(
        w,
        el,
        implicitRole(el),
        whereOf(w, r, where),
        yOf(w, r),
      );
      c.kind = kind;
      c.bySign = op!.bySign && !part;
      c.item.states.push(...op!.marks);
      // A resizable box says how big it is now, a canvas how big its drawing is, and so does a
      // box with no text.
      const empty = boxed && !/\S/.test(el.textContent ?? "");
      if (op!.marks.includes("RESIZABLE") || el.localName === "canvas" || empty) {
        c.item.attrs.push(`${Math.round(r.width)}×${Math.round(r.height)}`);
      }
      if (part) handMarks(part.item, c.item);
      if (op!.parts) c.parts = new Set(op!.parts);
      c.index = this.items.length;
      if (parent) parent.inner++;
      if (ctx.nest) c.item.level = ctx.nest;
      if (w.o.mode === "find") this.found.set(c.item, el);
      this.items.push(c.item);
      return c;
    }
    return ctx.control;
  }

  /**
   * Walks the children of `el` (its shadow root when it has one) with their context: `own`
   * is the context `el` itself got (its clip, the control it is or is in, where it is);
   * `listed`: `el` is that control.
   */
  #descend(
    el: Element,
    s: CSSStyleDeclaration,
    r: DOMRect | null,
    own: Ctx,
    listed: boolean,
  ): void {
    const tag = el.localName;
    const display = s.display;
    const panels = this.scrollers.length;
    const panel = clipOf(this.#w, el, s, r, own, this.scrollers);
    const read = this.#w.o.mode === "read";
    const child = childContext(el, s, own, listed, panel, this.#labelSink, read);
    const inline = isInline(display);
    // A scroll box of text gets a line of its own after the text it shows (scroll_box.ts).
    const box = this.scrollers.length > panels && !own.control && this.#w.o.mode === "observe";
    // Words of neighbouring blocks (and inline blocks) never run together.
    const apart = !inline || display.startsWith("inline-");
    if (apart && child.control) child.control.buf += " ";
    else if (apart) this.runs.space();
    if (tag === "details" && !(el as HTMLDetailsElement).open) {
      // A closed <details> shows only its summary.
      for (const part of el.children) if (part.localName === "summary") this.#element(part, child);
    } else {
      const shadow = (el as HTMLElement).shadowRoot;
      if (shadow) this.#reuse?.enter(shadow);
      this.#children(shadow ?? el, child);
    }
    if (apart && child.control) child.control.buf += " ";
    else if (apart) this.runs.space();
    if (!inline) this.runs.endBlock(el);
    if (box) {
      this.runs.flush();
      const line = scrollBoxItem(this.#w, el, r!, this.scrollers[panel.scroller]!, own.where);
      if (line) this.items.push(line);
    }
  }
}
