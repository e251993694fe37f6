import type { ElementHandle, Frame, Page } from "puppeteer-core";
import { type DomChanges, type EffectSnapshot, measureEffects } from "./in_page_effects.ts";
import { isolatedRealm } from "./realm.ts";

/** What the page looked like before an action, to compare with after it. */
interface Before {
  page: Page;
  url: string;
  title: string;
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
 * const effects = await probe.finish(page); // ["[7] is now checked"]
 * ```
 */
export class EffectProbe {
  readonly #before: Before;
  readonly #el: ElementHandle<Element> | undefined;
  readonly #id: number | undefined;

  private constructor(before: Before, el?: ElementHandle<Element>, id?: number) {
    this.#before = before;
    this.#el = el;
    this.#id = id;
  }

  /** Takes the "before" snapshot of `page`, and of element `[id]` when given. */
  static async start(page: Page, target?: { el: ElementHandle<Element>; id: number }) {
    const [url, title] = [page.url(), await page.title().catch(() => "")];
    const before: Before = { page, url, title };
    const el = target?.el;
    const main = page.mainFrame();
    const own = el && el.frame !== main ? el.frame : undefined;
    const [m, f] = await Promise.all([
      measure(main, own ? null : el ?? null, "start"),
      own ? measure(own, el!, "start") : undefined,
    ]);
    if (m) before.main = m;
    if (f) before.frame = f;
    return new EffectProbe(before, el, target?.id);
  }

  /** The page's URL before the action. */
  get url(): string {
    return this.#before.url;
  }

  /** True when a loading indicator showed before the action (then it does not hold settling). */
  get wasBusy(): boolean {
    return this.#before.main?.busy ?? false;
  }

  /**
   * Takes the "after" snapshot of `page` (another tab when the action opened one) and returns
   * what changed, one short phrase each; empty when nothing visible changed.
   */
  async finish(page: Page, options: { scroll?: boolean } = {}): Promise<string[]> {
    const before = this.#before;
    const out: string[] = [];
    const url = page.url();
    const title = await page.title().catch(() => "");
    const samePage = page === before.page;
    if (samePage && url !== before.url) {
      out.push(`now at ${url}${title ? ` "${title}"` : ""}`);
    } else if (samePage && title !== before.title) out.push(`the title is now "${title}"`);
    const el = this.#el;
    const main = page.mainFrame();
    const own = samePage && el && el.frame !== main && !el.frame.detached ? el.frame : undefined;
    const [m, f] = await Promise.all([
      measure(main, samePage && !own ? el ?? null : null, "end"),
      own ? measure(own, el!, "end") : undefined,
    ]);
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
    if (m && before.main) out.push(...pageChanges(before.main, m, m.changes, how));
    if (f && before.frame) {
      out.push(...pageChanges(before.frame, f, f.changes, { ...how, where: " in its frame" }));
    }
    return out;
  }
}

async function measure(
  frame: Frame,
  el: ElementHandle<Element> | null,
  phase: "start" | "end",
): Promise<(EffectSnapshot & { changes?: DomChanges }) | undefined> {
  try {
    if (el) return await el.evaluate(measureEffects, phase);
    return await isolatedRealm(frame).evaluate(measureEffects, null, phase);
  } catch {
    // The document was replaced or the element went away: the URL change says what happened.
    return undefined;
  }
}

function targetChanges(
  id: number,
  a: NonNullable<EffectSnapshot["target"]>,
  b: NonNullable<EffectSnapshot["target"]>,
): string[] {
  if (!b.connected) return a.connected ? [`[${id}] left the page`] : [];
  if (a.visible && !b.visible) return [`[${id}] is now hidden`];
  const out: string[] = [];
  const now = (what: string, changed: boolean) =>
    out.push(`[${id}] ${changed ? "is now" : "is still"} ${what}`);
  if (b.checked !== undefined) now(b.checked ? "checked" : "unchecked", a.checked !== b.checked);
  if (b.expanded !== undefined && b.expanded !== a.expanded) {
    out.push(`[${id}] is now ${b.expanded === "true" ? "expanded" : "collapsed"}`);
  }
  if (b.selected !== undefined && b.selected !== a.selected) {
    out.push(`[${id}] is now ${b.selected === "true" ? "selected" : "not selected"}`);
  }
  if (b.pressed !== undefined && b.pressed !== a.pressed) {
    out.push(`[${id}] is now ${b.pressed === "true" ? "pressed" : "not pressed"}`);
  }
  if (b.value !== undefined && b.value !== a.value) {
    out.push(`[${id}] now reads ${JSON.stringify(cut(b.value, 80))}`);
  }
  return out;
}

function pageChanges(
  a: EffectSnapshot,
  b: EffectSnapshot,
  changes: DomChanges | undefined,
  /** `same`: the same document (DOM counts mean something); `scroll`: the action scrolled. */
  how: { same: boolean; scroll: boolean; focusNews: boolean; where?: string },
): string[] {
  const out: string[] = [];
  const { same } = how;
  const at = how.where ?? "";
  if (same && changes?.tracked) {
    if (changes.added > 0) {
      const n = changes.added >= 500 ? "500+" : String(changes.added);
      const samples = changes.samples.map((s) => JSON.stringify(s)).join(", ");
      out.push(
        `${n} element${changes.added === 1 ? "" : "s"} appeared${at}${
          samples ? ` (${samples})` : ""
        }`,
      );
    }
    if (changes.removed > 0) {
      out.push(`${changes.removed} element${changes.removed === 1 ? "" : "s"} disappeared${at}`);
    }
    if (changes.added === 0 && changes.removed === 0 && a.textHash !== b.textHash) {
      out.push(`the visible text changed${at}`);
    }
  }
  if (b.focus !== a.focus && b.focus && how.focusNews) out.push(`focus moved to ${b.focus}${at}`);
  if (same && !how.scroll && b.scrollY !== a.scrollY) {
    out.push(`the page scrolled ${b.scrollY > a.scrollY ? "down" : "up"}${at}`);
  }
  return out;
}

function cut(s: string, n: number): string {
  const t = s.replace(/\s+/g, " ");
  return t.length > n ? t.slice(0, n - 1) + "…" : t;
}
