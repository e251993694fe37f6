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
  add(data: string, ctx: Ctx, r: Box, node: Text | null): void {
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
    const t = clean(this.#run);
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
  }
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
