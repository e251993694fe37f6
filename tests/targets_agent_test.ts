/**
 * Third-party-style pages whose targets are things a person points at rather than named controls
 * (`tests/fixtures/targets/`): a scripted model reads each text view, picks the handle the view
 * gives the thing (as a model would) and reaches the page's goal. Before the handles, the view
 * folded these things into one line or left them out, and each run failed.
 */
import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { type ModelRequest, startScriptedModel, type Step } from "./support/scripted_model.ts";

/** The request's CURRENT PAGE section: what the model sees of the page now. */
function currentPage(req: ModelRequest): string {
  return req.user.slice(req.user.indexOf("# CURRENT PAGE"));
}

/** Runs the agent in text mode on a fixture of `targets/` with `steps` after its navigation. */
async function solve(page: string, task: string, steps: Step[]) {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url(`/targets/${page}`) } },
    ...steps,
  ]);
  const run = await runCli({
    args: ["--max-steps", String(steps.length + 1), task],
    env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: "scripted" },
  });
  return { run, requests: model.requests };
}

/** Ends the run with what the page says when `shown` is on it, else undefined. */
function doneWhen(req: ModelRequest, shown: RegExp) {
  const said = shown.exec(currentPage(req))?.[0];
  return said ? { tool: "done", args: { result: said, success: true } } : undefined;
}

/** The list items of the view, `[N] <li> … Name`, in the order shown. */
function listItems(view: string): { id: number; name: string }[] {
  return [...view.matchAll(/^\[(\d+)\] <li>(?: \{[^}]*\})? (.+)$/gm)]
    .map((m) => ({ id: Number(m[1]), name: m[2]! }));
}

/**
 * One step of sorting a list by dragging: the first item out of place is dropped onto the item
 * where it belongs; done once the page says so.
 */
function sortStep(shown: RegExp): Step {
  return (req) => {
    const done = doneWhen(req, shown);
    if (done) return done;
    const items = listItems(currentPage(req));
    const sorted = [...items].sort((a, b) => a.name.localeCompare(b.name));
    const i = items.findIndex((it, k) => it.name !== sorted[k]!.name);
    if (items.length < 2 || i < 0) {
      return { tool: "done", args: { result: "no list items to drag", success: false } };
    }
    return { tool: "drag", args: { id: sorted[i]!.id, to: items[i]!.id } };
  };
}

Deno.test("a list sorted by pointer events on the list: each name is dragged by its own number", async () => {
  const { run } = await solve(
    "sortable_pointer.html",
    "Sort the names alphabetically",
    Array.from({ length: 6 }, () => sortStep(/^Sorted!$/m)),
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "Sorted!");
});

Deno.test("a jQuery-UI-style sortable (mousedown on the list, a helper and a placeholder): items dragged by number", async () => {
  const { run } = await solve(
    "sortable_jquery.html",
    "Put the items in order",
    Array.from({ length: 6 }, () => sortStep(/^In order$/m)),
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "In order");
});

Deno.test("three paragraphs: find gives the paragraph's number, and select_text highlights one sentence of it", async () => {
  const sentence = "The capital of Australia is Canberra.";
  const { run, requests } = await solve(
    "paragraphs.html",
    "Highlight the sentence that names the capital of Australia",
    [
      (req) => {
        assert.match(currentPage(req), /The capital of Australia is Canberra\./);
        return { tool: "find", args: { text: "capital of Australia is", role: "paragraph" } };
      },
      (req) => {
        const id = /^\[(\d+)\] "Sydney is its largest city/m.exec(req.user)?.[1];
        if (!id) return { tool: "done", args: { result: "no paragraph id", success: false } };
        return { tool: "select_text", args: { id: Number(id), text: sentence } };
      },
      (req) =>
        doneWhen(req, /^Correct: that is the sentence$/m) ??
          { tool: "done", args: { result: "not highlighted", success: false } },
    ],
  );
  assert.equal(run.code, 0, `${run.stderr}\n${requests.at(-1)?.user}`);
  assert.equal(run.stdout.trim(), "Correct: that is the sentence");
});

/** The element lines of the view whose tag is `tag`, with their numbers and labels. */
function linesOf(view: string, tag: string): { id: number; line: string; label: string }[] {
  return [...view.matchAll(new RegExp(`^\\[(\\d+)\\] <${tag}[^>]*>(?: \\{[^}]*\\})?(.*)$`, "gm"))]
    .map((m) => ({ id: Number(m[1]), line: m[0], label: m[2]!.trim() }));
}

Deno.test("an SVG pie menu under one listener: each slice is a control named by its <text>", async () => {
  const { run } = await solve("pie_menu.html", "Pick Share from the radial menu", [
    (req) => {
      const share = linesOf(currentPage(req), "g").find((g) => g.label === "Share");
      if (!share) return { tool: "done", args: { result: "no Share slice", success: false } };
      return { tool: "click", args: { id: share.id } };
    },
    (req) =>
      doneWhen(req, /^You picked share$/m) ??
        { tool: "done", args: { result: "not picked", success: false } },
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "You picked share");
});

Deno.test("SVG numbers to click in ascending order: each circle is numbered and named by its digit", async () => {
  const clickNext = (clicked: number[]): Step => (req) => {
    const done = doneWhen(req, /^All in order!$/m);
    if (done) return done;
    const circles = linesOf(currentPage(req), "circle")
      .filter((c) => /^\d+$/.test(c.label) && !clicked.includes(Number(c.label)))
      .sort((a, b) => Number(a.label) - Number(b.label));
    const next = circles[0];
    if (!next) return { tool: "done", args: { result: "no numbered circle", success: false } };
    clicked.push(Number(next.label));
    return { tool: "click", args: { id: next.id } };
  };
  const clicked: number[] = [];
  const { run } = await solve(
    "svg_numbers.html",
    "Click the numbers in ascending order",
    Array.from({ length: 7 }, () => clickNext(clicked)),
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "All in order!");
  assert.deepEqual(clicked, [1, 2, 4, 5, 7, 9]);
});

Deno.test("shapes to count: each SVG shape says its kind and colour, and the model counts them", async () => {
  const { run } = await solve("shapes.html", "How many red triangles are in the picture?", [
    (req) => {
      const red = linesOf(currentPage(req), "polygon")
        .filter((p) => /^<polygon triangle color=red /.test(p.line.replace(/^\[\d+\] /, "")));
      const answer = linesOf(currentPage(req), "input")[0];
      if (!answer) return { tool: "done", args: { result: "no answer box", success: false } };
      return { tool: "type", args: { id: answer.id, text: String(red.length), press_enter: true } };
    },
    (req) =>
      doneWhen(req, /^Right: 3 red triangles$/m) ??
        { tool: "done", args: { result: "wrong count", success: false } },
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "Right: 3 red triangles");
});

Deno.test("colour swatches with no text: each says its colour, and the green one is clicked", async () => {
  const { run } = await solve("swatches.html", "Choose the green T-shirt colour", [
    (req) => {
      const green = linesOf(currentPage(req), "span").find((s) => /color=green/.test(s.line));
      if (!green) return { tool: "done", args: { result: "no green swatch", success: false } };
      return { tool: "click", args: { id: green.id } };
    },
    (req) =>
      doneWhen(req, /^Chosen: forest$/m) ??
        { tool: "done", args: { result: "not chosen", success: false } },
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "Chosen: forest");
});

/** The rows of the view's first grid: each cell's number and whether it is ticked. */
function gridRows(view: string): { id: number; on: boolean }[][] {
  const at = /^\(grid of \w+, (\d+) rows × (\d+) columns:\)$/m.exec(view);
  if (!at) return [];
  const lines = view.slice(at.index).split("\n").slice(1, 1 + Number(at[1]));
  return lines.map((l) =>
    [...l.matchAll(/\[(\d+)\](?: <[^>]*>)?(?: \{[^}]*\})? ([☐☑])/g)].map((m) => ({
      id: Number(m[1]),
      on: m[2] === "☑",
    }))
  );
}

Deno.test("a grid of unlabeled checkboxes drawn as a digit: rows and columns shown, a 7 ticked by place", async () => {
  const seven = ["1111", "0001", "0001", "0001", "0001", "0001", "0001"];
  const tick: Step = (req) => {
    const done = doneWhen(req, /^That is a 7$/m);
    if (done) return done;
    const rows = gridRows(currentPage(req));
    if (rows.length !== 7 || rows.some((r) => r.length !== 4)) {
      return { tool: "done", args: { result: "no 7 × 4 grid", success: false } };
    }
    for (const [r, row] of rows.entries()) {
      for (const [c, cell] of row.entries()) {
        if (cell.on !== (seven[r]![c] === "1")) return { tool: "click", args: { id: cell.id } };
      }
    }
    const check = linesOf(currentPage(req), "button").find((b) => b.label === "Check");
    return { tool: "click", args: { id: check?.id ?? 0 } };
  };
  const { run } = await solve(
    "checkbox_grid.html",
    "Draw the digit 7 with the boxes",
    Array.from({ length: 12 }, () => tick),
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "That is a 7");
});

Deno.test("a resizable text area shows its size and grip; a drag by a distance drags the grip", async () => {
  const { run } = await solve("resizable.html", "Make the notes box at least 400 px wide", [
    (req) => {
      const box = linesOf(currentPage(req), "textarea")[0];
      const width = Number(/<textarea (\d+)×\d+>/.exec(box?.line ?? "")?.[1]);
      if (!box || !/\{RESIZABLE\}/.test(box.line) || !width) {
        return { tool: "done", args: { result: "no size or grip shown", success: false } };
      }
      return { tool: "drag", args: { id: box.id, dx: 420 - width, dy: 0 } };
    },
    (req) =>
      doneWhen(req, /^Wide enough$/m) ??
        { tool: "done", args: { result: "not resized", success: false } },
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "Wide enough");
});

Deno.test("a framework's root that takes every event: the box to right-click and the map to drag have numbers", async () => {
  const { run } = await solve("app_root.html", "Right-click in the box, then drag the map", [
    (req) => {
      const box = linesOf(currentPage(req), "div").find((d) => d.label === "Right-click here");
      if (!box) return { tool: "done", args: { result: "no box to right-click", success: false } };
      return { tool: "click", args: { id: box.id, button: "right" } };
    },
    (req) => {
      if (!/^You opened the context menu$/m.test(currentPage(req))) {
        return { tool: "done", args: { result: "no context menu", success: false } };
      }
      const map = linesOf(currentPage(req), "div").find((d) =>
        /^<div \d+×\d+>/.test(
          d.line.replace(/^\[\d+\] /, ""),
        )
      );
      if (!map) return { tool: "done", args: { result: "no map to drag", success: false } };
      return { tool: "drag", args: { id: map.id, dx: 80, dy: 0 } };
    },
    (req) =>
      doneWhen(req, /^The map moved$/m) ??
        { tool: "done", args: { result: "the map did not move", success: false } },
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "The map moved");
});
