import type { ElementHandle, Frame, Page } from "puppeteer-core";
import type { Effect, TargetChange } from "../../entity/mod.ts";
import {
  type ControlState,
  type DomChanges,
  type EffectSnapshot,
  inRealm,
  onElement,
  type TargetState,
} from "../runtime/page_runtime.ts";
import { LISTENER_TOKEN } from "../runtime/main_world.ts";
import { isolatedRealm } from "../runtime/realm.ts";

/** The run-wide ID of the element with local ID `lid` in the document with `token`, if given. */
export type IdOf = (token: string, lid: number) => number | undefined;

/** What the page looked like before an action, to compare with after it. */
interface Before {
  page: Page;
  url: string;
  title: string;
  /** When the main frame's document began (see `documentOf`). */
  document: number | undefined;
  main?: EffectSnapshot;
  /** The target's own frame, when it is not the main frame. */
  frame?: EffectSnapshot;
}

/**
 * Measures what an action changed: URL, title, focus, the target's state, elements added or
 * removed, visible text. Start it right before the action, finish it after settling.
 *
 * @example
 * ```ts
 * const probe = await EffectProbe.start(page, el);
 * await el.click();
 * const effects = await probe.finish(page); // [{ kind: "target", id: 7, change: { state: "checked", changed: true } }]
 * ```
 */
export class EffectProbe {
  readonly #before: Before;
  readonly #el: ElementHandle<Element> | undefined;
  readonly #id: number | undefined;
  readonly #idOf: IdOf;

  private constructor(before: Before, idOf: IdOf, el?: ElementHandle<Element>, id?: number) {
    this.#before = before;
    this.#idOf = idOf;
    this.#el = el;
    this.#id = id;
  }

  /**
   * Takes the "before" snapshot of `page`, and of element `[id]` when given; `passive` for an
   * action that only watches (a wait). `idOf` names other controls whose state changes.
   */
  static async start(
    page: Page,
    target?: { el: ElementHandle<Element>; id: number },
    passive = false,
    idOf: IdOf = () => undefined,
  ) {
    const url = page.url();
    const el = target?.el;
    const main = page.mainFrame();
    const own = el && el.frame !== main ? el.frame : undefined;
    // Read-only questions to the page: asked at once, not one round trip after another.
    const [title, m, f, document] = await Promise.all([
      page.title().catch(() => ""),
      measure(main, own ? null : el ?? null, "start", passive),
      own ? measure(own, el!, "start", passive) : undefined,
      documentOf(main),
    ]);
    const before: Before = { page, url, title, document };
    if (m) before.main = m;
    if (f) before.frame = f;
    return new EffectProbe(before, idOf, el, target?.id);
  }

  /** The page's URL before the action. */
  get url(): string {
    return this.#before.url;
  }

  /** The page's title before the action. */
  get title(): string {
    return this.#before.title;
  }

  /** What showed work in progress before the action (then it does not hold settling). */
  get busyBefore(): string[] {
    return this.#before.main?.busy ?? [];
  }

  /**
   * Takes the "after" snapshot of `page` (another tab when the action opened one) and returns
   * what changed, one fact each; empty when nothing visible changed.
   */
  async finish(page: Page, options: { scroll?: boolean } = {}): Promise<Effect[]> {
    const before = this.#before;
    const out: Effect[] = [];
    const url = page.url();
    const samePage = page === before.page;
    const el = this.#el;
    const main = page.mainFrame();
    const own = samePage && el && el.frame !== main && !el.frame.detached ? el.frame : undefined;
    const [title, m, f, document] = await Promise.all([
      page.title().catch(() => ""),
      measure(main, samePage && !own ? el ?? null : null, "end"),
      own ? measure(own, el!, "end") : undefined,
      samePage ? documentOf(main) : undefined,
    ]);
    if (samePage && url !== before.url) out.push({ kind: "navigated", url, title });
    else if (samePage && replaced(before.document, document)) {
      // The same address, another document: a page load, never the old page drawn again.
      out.push({ kind: "navigated", url, title, reloaded: true });
      return out;
    } else if (samePage && title !== before.title) out.push({ kind: "title", title });
    if (!samePage) return out;
    const target = (f ?? m)?.target;
    const beforeTarget = (before.frame ?? before.main)?.target;
    if (target && beforeTarget) out.push(...targetChanges(this.#id!, beforeTarget, target));
    // Focus that moved to the element acted on is what a click or typing does: not news.
    const how = {
      same: url === before.url,
      scroll: options.scroll ?? false,
      focusNews: !target?.focused,
    };
    if (m?.changes) out.push(...this.#controls(m.changes, false));
    if (f?.changes) out.push(...this.#controls(f.changes, true));
    if (m && before.main) out.push(...pageChanges(before.main, m, m.changes, how));
    if (f && before.frame) {
      out.push(...pageChanges(before.frame, f, f.changes, { ...how, inFrame: true }));
    }
    return out;
  }

  /** Controls the model was shown (they have IDs) whose value or state changed. */
  #controls(changes: DomChanges, inFrame: boolean): Effect[] {
    const out: Effect[] = [];
    for (const s of changes.states) {
      const id = this.#idOf(changes.token, s.lid);
      if (id === undefined || id === this.#id) continue;
      for (const change of stateChanges(s.before, s.after)) {
        out.push({ kind: "control", id, change, ...(inFrame ? { inFrame } : {}) });
      }
    }
    return out;
  }
}

/**
 * When the frame's document began (`performance.timeOrigin`, read in the isolated world, which
 * the page cannot change): another value is another document, whatever its address.
 */
function documentOf(frame: Frame): Promise<number | undefined> {
  return isolatedRealm(frame).evaluate(() => performance.timeOrigin).catch(() => undefined);
}

function replaced(before: number | undefined, after: number | undefined): boolean {
  return before !== undefined && after !== undefined && before !== after;
}

async function measure(
  frame: Frame,
  el: ElementHandle<Element> | null,
  phase: "start" | "end",
  passive = false,
): Promise<(EffectSnapshot & { changes?: DomChanges }) | undefined> {
  try {
    // The token lets the page's timer recorder know when the action starts and ends.
    if (el) return await onElement(el, "measureEffects", phase, passive, LISTENER_TOKEN);
    return await inRealm(
      isolatedRealm(frame),
      "measureEffects",
      null,
      phase,
      passive,
      LISTENER_TOKEN,
    );
  } catch {
    // The document was replaced or the element went away: the URL change says what happened.
    return undefined;
  }
}

function targetChanges(id: number, a: TargetState, b: TargetState): Effect[] {
  const change = (c: TargetChange): Effect => ({ kind: "target", id, change: c });
  if (!b.connected) return a.connected ? [change({ state: "left" })] : [];
  if (a.visible && !b.visible) return [change({ state: "hidden" })];
  const out: Effect[] = [];
  // A click on a checkbox says its state even when it kept it (the click did nothing).
  if (b.checked !== undefined && b.checked === a.checked) {
    out.push(change({ state: b.checked ? "checked" : "unchecked", changed: false }));
  }
  out.push(...stateChanges(a, b).map(change));
  // A new look is news only when no state says what changed.
  if (b.restyled !== undefined && out.every((e) => e.kind === "target" && "changed" in e.change)) {
    out.push(change(shownState(b.restyled)));
  }
  return out;
}

/**
 * The change a new look says, as the page view shows it: `{SELECTED}` is "selected", a look
 * that shows no state only that it looks different.
 */
function shownState(state: string): TargetChange {
  switch (state) {
    case "selected":
    case "current":
    case "pressed":
      return { state };
    case "checked":
      return { state, changed: true };
    default:
      return { state: "restyled" };
  }
}

/** How the states a person sees differ from `a` to `b`, one change each. */
function stateChanges(a: ControlState, b: ControlState): TargetChange[] {
  const out: TargetChange[] = [];
  if (b.checked !== undefined && b.checked !== a.checked) {
    out.push({ state: b.checked ? "checked" : "unchecked", changed: true });
  }
  if (b.expanded !== undefined && b.expanded !== a.expanded) {
    out.push({ state: b.expanded === "true" ? "expanded" : "collapsed" });
  }
  if (b.selected !== undefined && b.selected !== a.selected) {
    out.push({ state: b.selected === "true" ? "selected" : "not selected" });
  }
  if (b.pressed !== undefined && b.pressed !== a.pressed) {
    out.push({ state: b.pressed === "true" ? "pressed" : "not pressed" });
  }
  if (b.value !== undefined && b.value !== a.value) out.push({ state: "value", value: b.value });
  return out;
}

function pageChanges(
  a: EffectSnapshot,
  b: EffectSnapshot,
  changes: DomChanges | undefined,
  /** `same`: the same document (DOM counts mean something); `scroll`: the action scrolled. */
  how: { same: boolean; scroll: boolean; focusNews: boolean; inFrame?: boolean },
): Effect[] {
  const out: Effect[] = [];
  const { same } = how;
  const at = how.inFrame ? { inFrame: true } : {};
  if (same && changes?.tracked) {
    const c = changes;
    // New elements whose text is not new to the page (a word made bold) show nothing new; gone
    // ones whose text still shows (the bold taken off again) took nothing away.
    const shows = (c.added > 0 || c.headings.length > 0) &&
      (c.samples.length > 0 || c.headings.length > 0 || c.controls > 0 || c.newLines);
    if (shows) {
      out.push({
        kind: "added",
        count: c.added,
        capped: c.added >= 500,
        samples: c.samples.slice(0, c.headings.length > 0 ? 2 : 3),
        ...(c.headings.length > 0 ? { headings: c.headings } : {}),
        ...at,
      });
    }
    if (c.removed > 0 && (c.goneLines || c.removedControls > 0)) {
      out.push({ kind: "removed", count: c.removed, ...at });
    }
    const text = c.texts.length > 0 || c.samples.length > 0 || c.gone.length > 0 ||
      c.styled.length > 0;
    if (!shows && text) {
      const shown = new Set(c.texts.map((t) => t.to));
      const lines = c.samples.filter((l) => ![...shown].some((t) => l.includes(t)));
      out.push({
        kind: "text",
        ...(c.texts.length > 0 ? { changes: c.texts } : {}),
        ...(lines.length > 0 ? { lines: lines.slice(0, 2) } : {}),
        ...(c.gone.length > 0 && c.texts.length === 0 ? { gone: c.gone } : {}),
        ...(c.styled.length > 0 ? { styled: c.styled } : {}),
        ...at,
      });
    }
  }
  const moved = same && changes?.tracked ? changes.focusMoved : b.focus !== a.focus;
  if (moved && how.focusNews && (b.focus || a.focus)) {
    out.push({ kind: "focus", to: b.focus || "the page itself (no element has focus)", ...at });
  }
  if (same && !how.scroll && b.scrollY !== a.scrollY) {
    out.push({ kind: "scrolled", direction: b.scrollY > a.scrollY ? "down" : "up", ...at });
  }
  return out;
}
