/// <reference lib="dom" />
/**
 * Page text as the walk meets it, grouped into runs: one run per block (a paragraph, a list
 * item, a table row with its cells joined by " | ").
 *
 * @module
 */
import { clean, cut, norm } from "../../../shared/text.ts";
import type { Box, PageItem, TextItem } from "../../../shared/walk_types.ts";
import { type Ctx, type WalkScope, whereOf, yOf } from "./scope.ts";
import { blockRole } from "./block_roles.ts";

/** Collects text runs into a walk's items. */
export class TextRuns {
  readonly #w: WalkScope;
  readonly #items: PageItem[];
  #block: Element | null = null;
  #cell: Element | null = null;
  #run = "";
  #last: Text | null = null;
  #heading = 0;
  #level = 0;
  #where = 0;
  #y = 0;
  /** read: the run has text whose spaces or line breaks the page keeps (`pre`, a text area). */
  #pre = false;
  /** read: the tables met so far, numbered, so a row can be read with its header. */
  readonly #tables = new Map<Element, number>();
  /**
   * Runs ended so far, and whether each one became an item: the incremental walk tells what a
   * subtree did to the run open before it (the subtree's first flush ends that run).
   */
  flushes = 0;
  readonly pushed: boolean[] = [];
  /** find: the block of each text item. */
  readonly blocks = new Map<TextItem, Element>();

  constructor(w: WalkScope, items: PageItem[]) {
    this.#w = w;
    this.#items = items;
  }

  /**
   * Adds text `node` (its `data`) drawn at `r` in context `ctx`; a new block starts a new run.
   * `node` null: words drawn otherwise (an emoji picture's `alt`), kept apart from the text.
   */
  add(data: string, ctx: Ctx, r: Box, node: Text | null, keep?: Keep): void {
    if (ctx.block !== this.#block) {
      this.flush();
      this.#block = ctx.block;
      this.#heading = ctx.heading;
      this.#level = ctx.nest;
      this.#where = whereOf(this.#w, r, ctx.where);
      this.#y = yOf(this.#w, r);
    } else if (ctx.cell !== this.#cell && this.#cell && ctx.cell) {
      this.#run += " | ";
    }
    this.#cell = ctx.cell;
    // read keeps what the page draws: line breaks and indentation where its style keeps them,
    // one space for a run of white space elsewhere.
    if (this.#w.o.mode === "read") {
      if (keep) this.#pre = true;
      data = keep === "spaces"
        ? data.replace(/\r\n?/g, "\n")
        : data.replace(keep === "breaks" ? /[^\S\n]+/g : /\s+/g, " ");
    }
    const apart = !node && this.#run && !/\s$/.test(this.#run) ? " " : "";
    this.#run += (node ? gap(this.#last, this.#run, node) : apart) + data;
    this.#last = node;
  }

  /** Keeps the next text apart from the run's last word (an inline block ends or starts). */
  space(): void {
    if (this.#run && !/\s$/.test(this.#run)) this.#run += " ";
  }

  /** Ends the run if `el` is its block. */
  endBlock(el: Element): void {
    if (this.#block === el) this.flush();
  }

  /**
   * Ends the current run: it becomes an item when it has something a person reads
   * ({@link READS}) and, in find, the query.
   */
  flush(): void {
    const n = this.flushes++;
    const w = this.#w;
    const t = this.#pre ? tidy(this.#run) : clean(this.#run);
    this.pushed[n] = false;
    if (t && READS.test(t) && (w.o.mode !== "find" || norm(t).includes(w.query))) {
      this.pushed[n] = true;
      const item: TextItem = {
        kind: "text",
        text: cut(t, w.o.maxText),
        where: this.#where,
        y: this.#y,
      };
      if (this.#heading) item.heading = this.#heading;
      if (this.#level) item.level = this.#level;
      if (w.o.mode === "read" && this.#block) this.#tableRow(item, this.#block);
      this.#items.push(item);
      if (w.o.mode === "find" && this.#block) {
        this.blocks.set(item, this.#block);
        item.role = this.#heading ? "heading" : blockRole(this.#block, t);
      }
    }
    this.#run = "";
    this.#last = null;
    this.#block = null;
    this.#cell = null;
    this.#heading = 0;
    this.#pre = false;
  }

  /**
   * read: white space between the words of a run whose text is kept (`pre`): part of the text
   * there (code's line breaks and indentation between highlighted words), nothing elsewhere.
   */
  blank(data: string, ctx: Ctx, node: Text): void {
    if (!this.#pre || ctx.block !== this.#block || ctx.cell !== this.#cell) return;
    const parent = node.parentElement;
    const keep = parent ? keeps(parent) : undefined;
    if (keep) this.add(data, ctx, { top: 0, bottom: 0, left: 0, right: 0 }, node, keep);
  }

  /**
   * read: a field's text (a text area's value) as a run of its own, its line breaks and
   * indentation kept, as a person reads it in the box.
   */
  field(value: string, ctx: Ctx, r: Box): void {
    this.flush();
    this.add(value, { ...ctx, block: null, cell: null }, r, null, "spaces");
    this.flush();
  }

  /** read: marks a table row's item with its table, and whether it is the table's header. */
  #tableRow(item: TextItem, block: Element): void {
    if (block.localName !== "tr" && getComputedStyle(block).display !== "table-row") return;
    const table = block.closest("table, [role=table], [role=grid]");
    if (!table) return;
    let n = this.#tables.get(table);
    if (n === undefined) this.#tables.set(table, n = this.#tables.size + 1);
    item.table = n;
    const cells = Array.from(block.children);
    if (
      block.parentElement?.localName === "thead" ||
      (cells.length > 0 && cells.every((c) => c.localName === "th" || c.role === "columnheader"))
    ) item.head = true;
  }
}

/** How much of a text's white space the page keeps: all of it, or only its line breaks. */
export type Keep = "spaces" | "breaks";

/** What `el`'s style keeps of its text's white space (`pre`, `pre-wrap`, `pre-line`); if any. */
export function keeps(el: Element): Keep | undefined {
  const ws = getComputedStyle(el).whiteSpace;
  if (ws === "pre" || ws === "pre-wrap" || ws === "break-spaces") return "spaces";
  return ws === "pre-line" ? "breaks" : undefined;
}

/** Kept text tidied: no white space at the ends of its lines, no empty lines first or last. */
function tidy(text: string): string {
  return text.replace(/[^\S\n]+$/gm, "").replace(/^\n+|\s+$/g, "");
}

/**
 * What makes a run worth reading: letters or digits, or symbols and emoji a person reads as
 * meaning (`➡️⬆️`, `★★★☆☆`, `♥`: directions, a rating, a like). Runs of bare punctuation
 * between links (", ", "|", "·", "›") carry nothing and stay out.
 */
const READS = /[\p{L}\p{N}\p{So}\p{Extended_Pictographic}\u2190-\u21FF]/u;

let gapRange: Range | undefined;

/**
 * " " when the text of `node` must not run into the text before it (`before`, ending with
 * `prev`'s): both meet without a space, yet the page draws them apart (on another line, with a
 * gap of a few pixels); else "". `December</span><span>2016` drawn with a margin
 * reads "December 2016", `8in</div><div>5ft` "8in 5ft", `one<br>two` "one two".
 */
export function gap(prev: Text | null, before: string, node: Text): string {
  if (!prev || !before || /\s$/.test(before) || /^\s/.test(node.data)) return "";
  const range = gapRange ??= document.createRange();
  range.selectNodeContents(prev);
  const rects = range.getClientRects();
  const a = rects[rects.length - 1];
  range.selectNodeContents(node);
  const b = range.getClientRects()[0];
  if (!a || !b) return "";
  return b.top >= a.bottom - 1 || Math.max(b.left - a.right, a.left - b.right) >= 3 ? " " : "";
}
