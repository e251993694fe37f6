import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { inRealm } from "../internal/browser/runtime/page_runtime.ts";
import { isolatedRealm } from "../internal/browser/runtime/realm.ts";
import {
  type LabelTarget,
  overlaps,
  placeLabels,
  type Rect,
} from "../internal/browser/page/actions/overlay_place.ts";
import { contrast } from "../internal/browser/page/core/colour.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { medianColours } from "./support/pixels.ts";

const LABEL = { w: 17, h: 15 };
const VIEW = { x: 0, y: 0, w: 800, h: 600 };

/** Squares of `size` px in `rows` × `cols`, `gap` px apart, from (x, y); numbered from `first`. */
function grid(
  at: { x: number; y: number },
  rows: number,
  cols: number,
  size = 16,
  gap = 4,
  first = 1,
): LabelTarget[] {
  const out: LabelTarget[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const box = { x: at.x + c * (size + gap), y: at.y + r * (size + gap), w: size, h: size };
      out.push({ id: first + out.length, box, label: LABEL });
    }
  }
  return out;
}

/** Every (label, target) and (label, label) pair that share area. */
function clashes(targets: readonly LabelTarget[], labels: readonly { id: number; box: Rect }[]) {
  const found: string[] = [];
  for (const l of labels) {
    for (const t of targets) {
      if (overlaps(l.box, t.box)) found.push(`${l.id} over target ${t.id}`);
    }
    for (const o of labels) {
      if (o !== l && overlaps(l.box, o.box)) found.push(`${l.id} over label ${o.id}`);
    }
  }
  return found;
}

Deno.test("placeLabels() puts each number of a row of swatches beside it, over nothing", () => {
  const row = grid({ x: 40, y: 60 }, 1, 8);
  const placed = placeLabels(row, VIEW);
  assert.equal(placed.length, 8);
  assert.deepEqual(clashes(row, placed), []);
  assert.ok(placed.every((p) => p.how === "beside"), JSON.stringify(placed));
});

Deno.test("placeLabels() numbers a grid too dense for that as rows, in each row's order", () => {
  const cells = grid({ x: 10, y: 10 }, 7, 4);
  const placed = placeLabels(cells, VIEW);
  assert.deepEqual(clashes(cells, placed), []);
  assert.ok(placed.some((p) => p.how === "row"));
  for (let r = 0; r < 7; r++) {
    const row = placed.filter((p) => p.id > r * 4 && p.id <= r * 4 + 4);
    if (row.every((p) => p.how !== "row")) continue;
    // A row's strip reads left to right as the row does, level with it.
    const xs = row.map((p) => p.box.x);
    assert.deepEqual(xs, [...xs].sort((a, b) => a - b), `row ${r + 1}`);
    const middle = cells[r * 4]!.box.y + 8;
    for (const p of row) assert.ok(Math.abs(p.box.y + p.box.h / 2 - middle) <= 1);
  }
});

Deno.test("placeLabels() puts a large element's number inside its corner only when nothing beside is free", () => {
  const big: LabelTarget = { id: 1, box: { x: 0, y: 0, w: VIEW.w, h: VIEW.h }, label: LABEL };
  const [placed] = placeLabels([big], VIEW);
  assert.equal(placed?.how, "inside");
  const small: LabelTarget = { id: 2, box: { x: 200, y: 200, w: 100, h: 60 }, label: LABEL };
  assert.equal(placeLabels([small], VIEW)[0]?.how, "beside");
});

Deno.test("placeLabels() with no free space covers other elements before its own", () => {
  // A 16 px box walled in on every side by others, in a view that leaves no room for a strip.
  const cells = grid({ x: 0, y: 0 }, 3, 3, 16, 2);
  const placed = placeLabels(cells, { x: 0, y: 0, w: 52, h: 52 });
  const middle = placed.find((p) => p.id === 5)!;
  assert.equal(middle.how, "over");
  assert.ok(!overlaps(middle.box, cells[4]!.box), JSON.stringify(middle));
});

Deno.test("--vision labels on 16 px swatches and check boxes cover no element and no label, and stand out from what they cover", async () => {
  await using site = startFixtureServer();
  await using browser = await BrowserSession.start({ headless: true, observe: { overlay: true } });
  await browser.navigate(site.url("/targets/small_targets.html"));
  const page = pageOf(browser);
  const state = await browser.observe({ vision: true });
  assert.ok(state.image, "a picture was taken");
  const layout = await inRealm(isolatedRealm(page.mainFrame()), "overlayLayout");
  assert.ok(layout, "the overlay is drawn");
  // The targets' boxes as the page gives them, not as the overlay saw them.
  const targets = await page.evaluate(() =>
    [...document.querySelectorAll(".sw, input, button")].map((el) => {
      const r = el.getBoundingClientRect();
      const c = getComputedStyle(el).backgroundColor;
      return { box: { x: r.x, y: r.y, w: r.width, h: r.height }, colour: c };
    })
  );
  assert.equal(layout.labels.length, targets.length, "every element is numbered");
  const boxes = targets.map((t, i) => ({ id: -i - 1, box: t.box, label: LABEL }));
  assert.deepEqual(clashes(boxes, layout.labels), []);

  for (const [i, l] of layout.labels.entries()) {
    assert.ok(contrast(l.ink, l.fill) >= 4.5, `the digits of ${l.id} read on their fill`);
    // Beside a swatch, a number in the swatch's own colour would read as part of it.
    const swatch = /rgb\((\d+), (\d+), (\d+)\)/.exec(targets[i]!.colour)?.slice(1).map(Number);
    if (!swatch || targets[i]!.colour === "rgb(239, 239, 239)") continue;
    const ratio = contrast(l.fill, [swatch[0]!, swatch[1]!, swatch[2]!, 1]);
    assert.ok(
      ratio >= 2.5,
      `${l.id}: ${ratio.toFixed(2)} against its swatch ${targets[i]!.colour}`,
    );
  }
  // What is under each label, read from a picture of the page without the overlay.
  await browser.observe({ overlay: false });
  const shot = await browser.screenshot({ format: "png" });
  const under = await medianColours(
    page,
    shot.bytes,
    "image/png",
    layout.labels.map(({ box }) => ({
      x: Math.round(box.x),
      y: Math.round(box.y),
      width: Math.round(box.w),
      height: Math.round(box.h),
    })),
  );
  const low = layout.labels.flatMap((l, i) => {
    const ratio = contrast(l.fill, under[i]!);
    return ratio >= 3 ? [] : [`${l.id}: ${ratio.toFixed(2)} (${l.fill}) against ${under[i]}`];
  });
  assert.deepEqual(low, []);
});
