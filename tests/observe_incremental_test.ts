/**
 * Incremental observation gives what a full walk gives: two tabs hold the same page and get the
 * same seeded random mutations (insertions, removals, moves, text edits, classes, styles, ARIA
 * attributes, field values, scroll positions, open shadow roots and slotted content, a
 * same-origin iframe, and what restyles without a mutation: click listeners, focus, pointer
 * moves, held animations, shadow roots attached, labels and ids appearing, pushState), also
 * where a walk reads around an element (a field's layout label, look-alike siblings whose state
 * classes and colours change, a submenu after its parent link, icons, a table row of days);
 * after each round one is observed incrementally, the other with a full walk, and every item,
 * count and note must match.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { BrowserSession } from "../internal/browser/mod.ts";
import { type PageWalk, walkPage } from "../internal/browser/observe/frame_walk.ts";
import { asDelta } from "../internal/browser/page/observe/walk/delta.ts";
import { applyDelta } from "../internal/browser/shared/walk_delta.ts";
import type { PageItem } from "../internal/browser/shared/walk_types.ts";
import type { DocState } from "../internal/browser/page/core/state.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";

const SEEDS = [11, 248, 777];
const ROUNDS = 20;
const PER_ROUND = 5;

Deno.test("incremental observation equals a full walk after hundreds of random mutations", async () => {
  await using site = startFixtureServer();
  await using a = await BrowserSession.start({ headless: true });
  await using b = await BrowserSession.start({ headless: true });
  let mutations = 0, reused = 0, walked = 0;
  for (const seed of SEEDS) {
    await Promise.all([a, b].map((s) => s.navigate(site.url("/observe/incremental.html"))));
    const [pa, pb] = [pageOf(a), pageOf(b)];
    await Promise.all([pa, pb].map((p) =>
      p.waitForFunction(() =>
        frames.length > 0 &&
        frames[0]!.document.readyState === "complete"
      )
    ));
    for (let round = 0; round < ROUNDS; round++) {
      const scope = round % 4 === 3 ? "viewport" : "page";
      const ops = await Promise.all([pa, pb].map((p) => mutate(p, seed * 1000 + round)));
      // The pointer moves too (`:hover` restyles without a mutation).
      const x = (seed * 7 + round * 131) % 1200, y = (seed * 3 + round * 97) % 780;
      await Promise.all([pa, pb].map((p) => p.mouse.move(x, y)));
      assert.deepEqual(ops[0], ops[1], "both tabs got the same mutations");
      mutations += ops[0]!.length;
      const [inc, full] = await Promise.all([observe(pa, scope, true), observe(pb, scope, false)]);
      const where = `seed ${seed}, round ${round} (${scope}), after: ${ops[0]!.join("; ")}`;
      assert.deepEqual(comparable(inc), comparable(full), where);
      reused += inc.main.reused;
      walked += inc.entries.length;
      assert.equal(full.main.reused, 0);
    }
  }
  assert.ok(mutations >= 300, `${mutations} mutations`);
  // The incremental side really reused earlier walks (else the comparison proves nothing).
  assert.ok(reused > 1000, `only ${reused} elements reused over ${walked} items`);
});

Deno.test("a walk sent as a change to the last one rebuilds the same items", () => {
  let seed = 5;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const state = { token: "t", resultIds: 0 } as DocState;
  const o = {
    mode: "observe",
    scope: "page",
    margin: 0,
    maxText: 9,
    maxLabel: 9,
    clip: null,
    band: null,
  } as const;
  let held: { id: number; items: PageItem[] } | undefined;
  let items: PageItem[] = [];
  for (let i = 0; i < 400; i++) {
    const next = [...items];
    const at = Math.floor(rnd() * (next.length + 1));
    const text = (n: number) => ({ kind: "text", text: `t${n}`, where: 0, y: n } as const);
    if (rnd() < 0.4 && next.length) next.splice(at, Math.ceil(rnd() * 3));
    else next.splice(at, 0, ...Array.from({ length: Math.ceil(rnd() * 3) }, () => text(i)));
    if (rnd() < 0.3 && next.length) next[Math.floor(rnd() * next.length)] = text(-i);
    const since = held ? { token: "t", id: held.id } : undefined;
    const got = asDelta(state, { ...o, ...(since ? { since } : {}) }, next);
    const rebuilt = got.delta ? applyDelta(held!.items, got.delta, got.items) : got.items;
    assert.deepEqual(rebuilt, next, `step ${i}`);
    if (i > 0) assert.ok(got.delta, "a change, not the whole list");
    held = { id: got.id, items: rebuilt };
    items = next;
  }
});

/** One observation's walk of the page and its frames, incremental or full. */
function observe(page: Page, scope: "page" | "viewport", incremental: boolean): Promise<PageWalk> {
  return walkPage(page, {
    mode: "observe",
    scope,
    margin: 0.25,
    maxText: 120,
    maxLabel: 80,
    incremental,
  });
}

/** What an observation tells, without what differs between two tabs (frame objects, timings). */
function comparable(w: PageWalk): unknown {
  const { ms: _ms, reused: _r, id: _id, token: _t, items: _i, ...main } = w.main;
  return {
    main,
    above: w.above,
    below: w.below,
    scrollers: w.scrollers.map(({ frame: _f, token: _t, ...sc }) => sc),
    entries: w.entries.map((e) =>
      e.kind === "frame" ? { frame: e.depth, where: e.where } : { depth: e.depth, item: e.item }
    ),
  };
}

/** Applies PER_ROUND random mutations chosen by `seed`; returns what each one was. */
function mutate(page: Page, seed: number): Promise<string[]> {
  return page.evaluate(
    (seed: number, count: number) => {
      let s = seed >>> 0;
      const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
      const pick = <T>(list: T[]): T => list[Math.floor(rnd() * list.length)]!;
      const WORDS = ["north", "orders", "refund", "blue", "setup", "zebra", "quiet", "export"];
      const words = () => `${pick(WORDS)} ${pick(WORDS)}`;
      const frame = (document.getElementById("frame") as HTMLIFrameElement | null)?.contentDocument;
      const elements = (doc: Document) => {
        const out: Element[] = [];
        const walk = (root: ParentNode) => {
          for (const el of Array.from(root.querySelectorAll("*"))) {
            if (!["script", "style", "iframe"].includes(el.localName)) out.push(el);
            if (el.shadowRoot) walk(el.shadowRoot);
          }
        };
        walk(doc.body);
        return out;
      };
      const done: string[] = [];
      for (let i = 0; i < count; i++) {
        const doc = frame && rnd() < 0.2 ? frame : document;
        const all = elements(doc);
        if (all.length === 0) continue;
        const el = pick(all);
        const name = `${doc === document ? "" : "frame:"}${el.localName}#${all.indexOf(el)}`;
        const op = Math.floor(rnd() * 18);
        // Moving or removing an <iframe> reloads it, at its own pace in each tab: not moved here.
        const holdsFrame = el.contains(document.getElementById("frame"));
        if (op === 0) {
          const tag = pick(["div", "p", "span", "a", "button", "input", "li", "label", "h3"]);
          const added = doc.createElement(tag);
          if (tag === "a") added.setAttribute("href", "/new");
          if (tag === "input") added.setAttribute("placeholder", words());
          else added.textContent = words();
          const parent = ["input", "select", "textarea", "img"].includes(el.localName)
            ? el.parentNode!
            : el;
          parent.insertBefore(added, pick([null, ...Array.from(parent.childNodes)]));
          done.push(`insert ${tag} into ${name}`);
        } else if (op === 1) {
          if (!holdsFrame) el.remove();
          done.push(`remove ${name}`);
        } else if (op === 2) {
          const text = Array.from(el.childNodes).find((n) => n.nodeType === 3) as Text | undefined;
          if (text) text.data = words();
          else el.append(doc.createTextNode(words()));
          done.push(`text of ${name}`);
        } else if (op === 3) {
          const c = pick([
            "hide",
            "inv",
            "clip",
            "abs",
            "pad",
            "dark",
            "ptr",
            "inl",
            "flex",
            "open",
            "active",
            "sel",
          ]);
          el.classList.toggle(c);
          done.push(`class ${c} on ${name}`);
        } else if (op === 4) {
          const style = pick([
            "",
            "display:none",
            "margin-top:30px",
            "height:10px;overflow:hidden",
            "visibility:hidden",
            "position:absolute;top:0",
            "opacity:0",
            "display:inline-block",
            "cursor:pointer",
            "overflow:auto;height:40px",
            "background:#2a2",
            "order:-1",
          ]);
          (el as HTMLElement).style.cssText = style;
          done.push(`style "${style}" on ${name}`);
        } else if (op === 5) {
          const [attr, value] = pick([
            ["aria-label", words()],
            ["aria-expanded", pick(["true", "false"])],
            ["hidden", ""],
            ["disabled", ""],
            ["role", pick(["button", "link", "heading", "tab"])],
            ["tabindex", "0"],
            ["aria-labelledby", "far-label"],
            ["title", words()],
          ] as [string, string][]);
          if (el.hasAttribute(attr) && rnd() < 0.5) el.removeAttribute(attr);
          else el.setAttribute(attr, value);
          done.push(`${attr} on ${name}`);
        } else if (op === 6) {
          const field = pick(Array.from(doc.querySelectorAll("input, select, textarea")));
          if (field instanceof HTMLInputElement) {
            if (field.type === "checkbox") field.checked = !field.checked;
            else field.value = words();
          } else if (field instanceof HTMLSelectElement) {
            field.selectedIndex = Math.floor(rnd() * 3);
          } else if (field instanceof HTMLTextAreaElement) field.value = words();
          done.push(`value of a ${field?.localName ?? "missing field"}`);
        } else if (op === 7) {
          const scroller = doc.getElementById("scroller");
          if (scroller) scroller.scrollTop = Math.floor(rnd() * 300);
          if (rnd() < 0.3) scrollTo(0, Math.floor(rnd() * 400));
          done.push("scroll");
        } else if (op === 8) {
          const inside = (t: Node) => {
            for (let n: Node | null = t; n; n = n.parentNode ?? (n as ShadowRoot).host ?? null) {
              if (n === el) return true;
            }
            return false;
          };
          const to = pick(
            all.filter((t) => !inside(t) && !["input", "select"].includes(t.localName)),
          );
          if (to && el !== doc.body && !holdsFrame) to.append(el);
          done.push(`move ${name}`);
        } else if (op === 9) {
          const host = document.getElementById("widget");
          const root = host?.shadowRoot;
          const inside = root ? pick(Array.from(root.querySelectorAll("*"))) : undefined;
          const dice = rnd();
          if (host && dice < 0.3) {
            // Light-DOM content that the shadow tree's <slot> shows.
            const light = host.firstElementChild;
            if (light && dice < 0.15) light.textContent = words();
            else host.append(Object.assign(document.createElement("p"), { textContent: words() }));
          } else if (inside && dice < 0.65) {
            inside.append(document.createTextNode(` ${words()}`));
          } else if (inside instanceof HTMLElement) {
            inside.style.display = inside.style.display === "none" ? "" : "none";
          }
          done.push("shadow root");
        } else if (op === 10) {
          const details = doc.querySelector("details");
          if (details) details.open = !details.open;
          done.push("details");
        } else if (op === 11) {
          // A script makes it clickable: no mutation.
          el.addEventListener("click", () => {});
          done.push(`click listener on ${name}`);
        } else if (op === 12) {
          // Targets of lookups appear or go elsewhere: an id aria-labelledby names, a <label for>.
          const late = doc.getElementById("late-target");
          if (late && rnd() < 0.5) late.remove();
          else if (rnd() < 0.5) {
            pick(all).append(
              Object.assign(doc.createElement("span"), {
                id: "late-target",
                textContent: words(),
              }),
            );
          } else {
            const label = Object.assign(doc.createElement("label"), { textContent: words() });
            label.htmlFor = pick(["q", "far", "ta", "sel"]);
            pick(all).append(label);
          }
          done.push("lookup target");
        } else if (op === 13) {
          history.pushState(null, "", `/observe/p${Math.floor(rnd() * 4)}/`);
          done.push("pushState");
        } else if (op === 14) {
          const field = pick(Array.from(doc.querySelectorAll("input, select, textarea, a")));
          if (field instanceof HTMLElement && rnd() < 0.7) field.focus();
          else (doc.activeElement as HTMLElement | null)?.blur();
          done.push("focus");
        } else if (op === 15) {
          // An animation that ends at once and holds its last frame: no mutation.
          el.animate([{ opacity: 1 }, { opacity: rnd() < 0.5 ? 0.05 : 1 }], {
            duration: 0,
            fill: "forwards",
          });
          done.push(`animation on ${name}`);
        } else if (op === 16) {
          try {
            el.attachShadow({ mode: "open" }).innerHTML = `<p>${words()}</p><slot></slot>`;
            done.push(`shadow root attached to ${name}`);
          } catch {
            done.push(`no shadow root for ${name}`);
          }
        } else {
          // A link added and removed at once (its detached node's records must not break).
          const a = doc.createElement("a");
          doc.body.append(a);
          a.remove();
          el.setAttribute("data-n", words());
          done.push(`detached link, data on ${name}`);
        }
      }
      return done;
    },
    seed,
    PER_ROUND,
  );
}
