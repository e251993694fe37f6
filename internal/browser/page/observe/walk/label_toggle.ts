/// <reference lib="dom" />
/**
 * Check boxes and radios a page hides and draws by their label (custom toggles): the control is
 * listed at its label's place, and clicked by script (the input itself cannot be pointed at).
 *
 * @module
 */
import { labelsOf } from "../../core/label_index.ts";
import { notePlaced } from "../../core/reads.ts";
import { implicitRole } from "../../core/roles.ts";
import type { ElementItem, PageItem } from "../../../shared/walk_types.ts";
import { intersects } from "../paint.ts";
import { describe, finish } from "./describe.ts";
import { type Ctx, type WalkScope, whereOf, yOf } from "./scope.ts";
import type { TextRuns } from "./text_runs.ts";

/** What the walker gives a toggle drawn by its label: its items, and its counts of the band. */
export interface ToggleSink {
  items: PageItem[];
  runs: TextRuns;
  found: Map<ElementItem, Element>;
  above: number;
  below: number;
}

/**
 * Lists the hidden check box or radio `el` at its label's place, in context `ctx`; counts it
 * above or below the band when its label is out of it.
 */
export function listLabelToggle(w: WalkScope, sink: ToggleSink, el: Element, ctx: Ctx): void {
  const label = labelsOf(el)?.[0];
  if (label) notePlaced(label);
  if (!label || !label.checkVisibility({ visibilityProperty: true })) return;
  const r = label.getBoundingClientRect();
  if (r.width === 0 || r.height === 0 || !intersects(r, ctx.clip)) return;
  if (r.bottom <= w.bandTop) sink.above++;
  else if (r.top >= w.bandBottom) sink.below++;
  else {
    if (!ctx.control) sink.runs.flush();
    const c = describe(w, el, implicitRole(el), whereOf(w, r, ctx.where), yOf(w, r));
    finish(w, c);
    if (ctx.owner) ctx.owner.inner++;
    if (ctx.nest) c.item.level = ctx.nest;
    if (w.o.mode === "find") sink.found.set(c.item, el);
    if (w.o.mode !== "read") sink.items.push(c.item);
  }
}
