/// <reference lib="dom" />
/**
 * Page text as the walk meets it, grouped into runs: one run per block (a paragraph, a list
 * item, a table row with its cells joined by " | ").
 *
 * @module
 */
import { clean, cut, norm } from "../../../shared/text.ts";
import type { Box, PageItem } from "../../../shared/walk_types.ts";
import { type Ctx, type WalkScope, whereOf } from "./scope.ts";

/** Collects text runs into a walk's items. */
export class TextRuns {
  readonly #w: WalkScope;
  readonly #items: PageItem[];
  #block: Element | null = null;
  #cell: Element | null = null;
  #run = "";
  #heading = 0;
  #where = 0;
  #y = 0;
  /**
   * Runs ended so far, and whether each one became an item: the incremental walk tells what a
   * subtree did to the run open before it (the subtree's first flush ends that run).
   */
  flushes = 0;
  readonly pushed: boolean[] = [];

  constructor(w: WalkScope, items: PageItem[]) {
    this.#w = w;
    this.#items = items;
  }

  /** Adds text drawn at `r` in context `ctx`; a new block starts a new run. */
  add(data: string, ctx: Ctx, r: Box): void {
    if (ctx.block !== this.#block) {
      this.flush();
      this.#block = ctx.block;
      this.#heading = ctx.heading;
      this.#where = whereOf(this.#w, r, ctx.where);
      this.#y = (r.top - this.#w.view.top) / this.#w.vh;
    } else if (ctx.cell !== this.#cell && this.#cell && ctx.cell) {
      this.#run += " | ";
    }
    this.#cell = ctx.cell;
    this.#run += data;
  }

  /** Keeps the next text apart from the run's last word (an inline block ends or starts). */
  space(): void {
    if (this.#run && !/\s$/.test(this.#run)) this.#run += " ";
  }

  /** Ends the run if `el` is its block. */
  endBlock(el: Element): void {
    if (this.#block === el) this.flush();
  }

  /** Ends the current run: it becomes an item when it has letters or digits (and, in find, the query). */
  flush(): void {
    const n = this.flushes++;
    const w = this.#w;
    const t = clean(this.#run);
    this.pushed[n] = false;
    // Runs of bare punctuation between links (", ", "|", "·") carry nothing a person reads.
    if (t && /[\p{L}\p{N}]/u.test(t) && (w.o.mode !== "find" || norm(t).includes(w.query))) {
      this.pushed[n] = true;
      const text = cut(t, w.o.maxText);
      this.#items.push(
        this.#heading
          ? { kind: "text", text, heading: this.#heading, where: this.#where, y: this.#y }
          : { kind: "text", text, where: this.#where, y: this.#y },
      );
    }
    this.#run = "";
    this.#block = null;
    this.#cell = null;
    this.#heading = 0;
  }
}
