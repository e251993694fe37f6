import type { ElementHandle, Frame, Page } from "puppeteer-core";
import {
  ActionError,
  type BrowserState,
  estimateTokens,
  type ObservedElement,
  type SummaryLine,
} from "../../entity/mod.ts";
import { renderElement, renderSummary } from "./dom_summary.ts";
import { ElementIds } from "./element_ids.ts";
import { type PageWalk, type WalkEntry, walkPage } from "./frame_walk.ts";
import { isNavigationError } from "../runtime/page_changed.ts";
import { handleInRealm, inRealm } from "../runtime/page_runtime.ts";
import { type ElementItem, type PageItem, WHERE } from "../shared/walk_types.ts";
import { hiddenMatches } from "./hidden_matches.ts";
import { compactPage, passages } from "./page_scope.ts";
import { isolatedRealm } from "../runtime/realm.ts";
import { capturePage } from "../screenshots/screenshot.ts";
import { DEFAULT_TOKEN_BUDGET, EXTRA_SHARE, fitBudget } from "./token_budget.ts";

/** How pages are observed. */
export interface ObserveOptions {
  /** `viewport`: what shows plus a margin (default); `page`: the whole document. */
  scope: "viewport" | "page";
  /** Hard limit of one observation's summary, in tokens (estimated). */
  tokenBudget: number;
  /** Draw the element numbers on the page after each observation. */
  overlay: boolean;
  /** Attach a labelled screenshot of the viewport to the observation. */
  vision: boolean;
  /**
   * Walk again only the parts of the page that changed since the last observation (default);
   * false walks all of it every time (`--no-walk-cache`, to compare).
   */
  walkCache: boolean;
}

/** What `find` found: a head line, the matches shown (elements with their IDs), and all of it as text. */
export interface FindResult {
  head: string;
  matches: { text: string; id?: number }[];
  /** Matches in all, including those left out to fit the token budget. */
  count: number;
  /** The head and the matches, one per line, as the model reads them. */
  text: string;
}

/** Margin above and below the viewport that the default scope lists too, in screens. */
const MARGIN = 0.25;
const MAX_TEXT = 150;
/** Longest text line of a whole-page observation: an overview; `read` gives all the text. */
const MAX_PAGE_TEXT = 120;
const MAX_LABEL = 80;
/** Longest field value find shows (a value the view cuts is read whole with find). */
const MAX_FIND_VALUE = 4000;

/** A summary line made from a walk's item, and its size in tokens. */
interface Made {
  line: SummaryLine;
  tokens: number;
}

/**
 * Observes pages as numbered DOM summaries and resolves the numbers back to elements. One per
 * run: numbers are never reused for another element.
 */
export class PageObserver {
  readonly #ids = new ElementIds();
  readonly #options: ObserveOptions;
  /** Frames where the overlay is drawn, to clear it before the next observation. */
  #overlaid = new Set<Frame>();
  /** What each item of earlier observations became (see {@link PageObserver.#made}). */
  readonly #madeOf = new WeakMap<PageItem, Made>();

  constructor(options: Partial<ObserveOptions> = {}) {
    this.#options = {
      scope: options.scope ?? "viewport",
      tokenBudget: options.tokenBudget ?? DEFAULT_TOKEN_BUDGET,
      overlay: options.overlay ?? false,
      vision: options.vision ?? false,
      walkCache: options.walkCache ?? true,
    };
  }

  /** Observes the page: URL, title and the numbered DOM summary, frames included. */
  async observe(page: Page, override: Partial<ObserveOptions> = {}): Promise<BrowserState> {
    const o = { ...this.#options, ...override };
    await this.#clearOverlay();
    const [walk, title] = await Promise.all([
      walkPage(page, {
        mode: "observe",
        scope: o.scope,
        margin: MARGIN,
        maxText: o.scope === "page" ? MAX_PAGE_TEXT : MAX_TEXT,
        maxLabel: MAX_LABEL,
        incremental: o.walkCache,
      }).catch(unlessNavigating(undefined)),
      page.title().catch(unlessNavigating("")),
    ]);
    if (!walk) return { url: page.url(), title, lines: [], summary: renderSummary([]) };
    // Numbers of frames that went away, or of documents a frame no longer shows, are dropped.
    this.#ids.prune(new Map([...walk.walks].map(([frame, w]) => [frame, w.token])));
    const lines = this.#compose(walk, o);
    const state: BrowserState = { url: page.url(), title, lines, summary: renderSummary(lines) };
    if (o.overlay || o.vision) await this.#drawOverlay(walk, lines);
    if (o.vision) {
      const base64 = await capturePage(page, { format: "jpeg", quality: 70 })
        .catch(unlessNavigating(undefined));
      if (base64) state.image = { mimeType: "image/jpeg", base64 };
      if (!o.overlay) await this.#clearOverlay();
    }
    return state;
  }

  /**
   * Finds elements and text anywhere in the page (off screen, frames, shadow roots) whose text
   * contains `text`, case- and accent-insensitively; the elements get IDs the other tools accept.
   */
  async find(page: Page, text: string, role?: string): Promise<FindResult> {
    const walk = await walkPage(page, {
      mode: "find",
      scope: "page",
      margin: 0,
      maxText: MAX_TEXT,
      maxLabel: MAX_LABEL,
      maxValue: MAX_FIND_VALUE,
      query: text,
      ...(role ? { role: role.toLowerCase() } : {}),
    });
    const matches: FindResult["matches"] = [];
    let count = 0;
    let tokens = 0;
    const limit = Math.min(this.#options.tokenBudget, 1500);
    let cut = 0;
    for (const entry of walk.entries) {
      if (entry.kind !== "item") continue;
      const line = this.#line(entry);
      if (!line) continue;
      const where = position(entry.item.y);
      const shown = (line.kind === "element"
        ? renderElement({ ...line.element, level: 0 })
        : `"${line.text}"`) +
        where + this.#beside(entry);
      count++;
      const t = estimateTokens(shown) + 1;
      if (tokens + t > limit) {
        cut++;
        continue;
      }
      tokens += t;
      matches.push(
        line.kind === "element" ? { text: shown, id: line.element.id } : { text: shown },
      );
    }
    // Matches inside collapsed or hidden parts: the control that shows them, to expand first.
    const hiddenLines = hiddenMatches(
      walk,
      (frame, token, lid) => this.#ids.assign(frame, token, lid).id,
    );
    matches.push(...hiddenLines.lines);
    const hidden = hiddenLines.count;
    const what = role
      ? `${role} element${count === 1 ? "" : "s"} matching`
      : `match${count === 1 ? "" : "es"} for`;
    const head = count === 0
      ? `No ${
        role ? `${role} elements matching` : hidden ? "visible matches for" : "matches for"
      } ${JSON.stringify(text)} on the page${hidden ? ":" : ""}`
      : `${count} ${what} ${JSON.stringify(text)}${cut ? ` (first ${count - cut} shown)` : ""}:`;
    return {
      head,
      matches,
      count: count + hidden,
      text: [head, ...matches.map((m) => m.text)].join("\n"),
    };
  }

  /**
   * The page's main text as plain text, in pages of about `budget` tokens; with `query`, only the
   * passages that mention it (with their headings).
   */
  async read(
    page: Page,
    options: { query?: string; page?: number } = {},
  ): Promise<{ text: string; pages: number }> {
    const walk = await walkPage(page, {
      mode: "read",
      scope: "page",
      margin: 0,
      maxText: 4000,
      maxLabel: MAX_LABEL,
    });
    let lines: { text: string; heading?: number }[] = [];
    for (const e of walk.entries) {
      if (e.kind === "item" && e.item.kind === "text") {
        lines.push(e.item.heading ? { text: e.item.text, heading: e.item.heading } : e.item);
      }
    }
    const query = options.query?.trim();
    if (query) lines = passages(lines, query);
    const rendered = lines.map((l) => (l.heading ? `${"#".repeat(l.heading)} ${l.text}` : l.text));
    const budget = Math.max(300, this.#options.tokenBudget);
    const pages: string[][] = [[]];
    let used = 0;
    for (const line of rendered) {
      const t = estimateTokens(line) + 1;
      if (used + t > budget && pages[pages.length - 1]!.length > 0) {
        pages.push([]);
        used = 0;
      }
      const text = t > budget ? line.slice(0, budget * 2) + "…" : line;
      pages[pages.length - 1]!.push(text);
      used += Math.min(t, budget);
    }
    const n = Math.min(Math.max(1, options.page ?? 1), pages.length);
    if (rendered.length === 0) {
      return {
        text: query ? `No text mentions ${JSON.stringify(query)} on the page` : "(no text)",
        pages: 0,
      };
    }
    const more = n < pages.length ? `; read page ${n + 1} for more` : "";
    const head = `Text${
      query ? ` mentioning ${JSON.stringify(query)}` : ""
    }, page ${n} of ${pages.length}${more}:`;
    return { text: [head, ...pages[n - 1]!].join("\n"), pages: pages.length };
  }

  /** The element behind an ID from an observation; throws when it never existed or is gone. */
  async element(id: number): Promise<ElementHandle<Element>> {
    const ref = this.#ids.lookup(id);
    if (!ref && this.#ids.given(id)) {
      throw new ActionError("gone", `Element [${id}] is gone: the page changed, observe again`);
    }
    if (!ref) {
      throw new ActionError(
        "unknown_element",
        `Element [${id}] does not exist: use an ID from the current page`,
      );
    }
    let handle;
    try {
      handle = await handleInRealm(
        isolatedRealm(ref.frame),
        "elementByLocalId",
        ref.token,
        ref.lid,
      );
    } catch {
      handle = undefined; // its frame is gone or navigated
    }
    const el = handle?.asElement();
    if (!el) {
      await handle?.dispose();
      throw new ActionError("gone", `Element [${id}] is gone: the page changed, observe again`);
    }
    return el as ElementHandle<Element>;
  }

  /** The options this observer was made with. */
  get options(): ObserveOptions {
    return { ...this.#options };
  }

  /** The ID given to the element with local number `lid` in the document `token`, if any. */
  idOf(token: string, lid: number): number | undefined {
    return this.#ids.find(token, lid);
  }

  /** Where an ID points (frame, document token, local number), or undefined. */
  ref(id: number): { frame: Frame; token: string; lid: number } | undefined {
    return this.#ids.lookup(id);
  }

  /**
   * An item's line and its size in tokens, as an earlier observation made them when the item is
   * the same object (an unchanged part of the page: a walk sent as a change keeps the others')
   * and its element has the same number.
   */
  #made(entry: WalkEntry & { kind: "item" }): Made | undefined {
    const item = entry.item;
    const id = item.kind === "el" ? this.#ids.assign(entry.frame, entry.token, item.lid).id : -1;
    const hit = this.#madeOf.get(item);
    if (hit && (hit.line.kind !== "element" || hit.line.element.id === id)) return hit;
    const line = this.#line(entry);
    if (!line) return undefined;
    const text = line.kind === "element"
      ? renderElement(line.element)
      : line.kind === "text" && line.heading
      ? `${"#".repeat(line.heading)} ${line.text}`
      : line.kind === "text"
      ? line.text
      : "";
    const made = { line, tokens: estimateTokens(text) + 1 };
    this.#madeOf.set(item, made);
    return made;
  }

  #line(entry: WalkEntry & { kind: "item" }): SummaryLine | undefined {
    const item = entry.item;
    if (item.kind === "text") {
      const line: SummaryLine = { kind: "text", text: item.text };
      if (item.heading) line.heading = item.heading;
      if (item.level) line.level = item.level;
      return line;
    }
    return { kind: "element", element: this.#element(entry.frame, entry.token, item) };
  }

  #element(frame: Frame, token: string, item: ElementItem): ObservedElement {
    const { id } = this.#ids.assign(frame, token, item.lid);
    const { tag, role, attrs, states, label } = item;
    const element: ObservedElement = { id, tag, role, attrs, states, label };
    for (const key of ["icon", "value", "valueLength", "fresh", "level", "row"] as const) {
      if (item[key] !== undefined) Object.assign(element, { [key]: item[key] });
    }
    return element;
  }

  /**
   * find: what to act on for a text match: the controls in its row (`— same row: [4] …`), or
   * the ID that `scroll` brings it into view with.
   */
  #beside(entry: WalkEntry & { kind: "item" }): string {
    const item = entry.item;
    if (item.kind !== "text") return "";
    if (item.near?.length) {
      const near = item.near.map((it) =>
        renderElement({ ...this.#element(entry.frame, entry.token, it), level: 0 })
      );
      return ` — same row: ${near.join(", ")}`;
    }
    if (item.at === undefined) return "";
    return ` — scroll with [${this.#ids.assign(entry.frame, entry.token, item.at).id}] to see it`;
  }

  /** Lines in reading order (dialog first), cut to the token budget, with closing notes. */
  #compose(walk: PageWalk, o: ObserveOptions): SummaryLine[] {
    const modal = walk.main.modal;
    type Entry = { line: SummaryLine; rank: number; tokens: number };
    const first: Entry[] = [];
    const rest: Entry[] = [];
    const compact = o.scope === "page"
      ? compactPage(walk.entries)
      : { entries: walk.entries, leftLines: 0 };
    for (const e of compact.entries) {
      if (e.kind === "frame") {
        const url = e.frame.url();
        const text = `--- frame${/^https?:/.test(url) ? ` ${shortUrl(url)}` : ""}`;
        const target = e.where & WHERE.dialog ? first : rest;
        target.push({ line: { kind: "note", text, divider: "frame" }, rank: 99, tokens: 0 });
        continue;
      }
      const made = this.#made(e);
      if (!made) continue;
      const { line, tokens } = made;
      const w = e.item.where;
      const inView = (w & WHERE.viewport) !== 0;
      let rank: number;
      if (w & WHERE.dialog) rank = 0;
      else if (w & WHERE.form) rank = 1;
      else if (line.kind === "element") rank = inView ? 2 : 5;
      else if (line.kind === "text" && line.heading) rank = inView ? 3 : 6;
      else rank = inView ? 4 : 7;
      if (modal && !(w & WHERE.dialog)) rank += 10;
      const entry: Entry = { line, rank, tokens };
      (modal && w & WHERE.dialog ? first : rest).push(entry);
    }
    const entries = modal
      ? [
        ...first,
        {
          line: {
            kind: "note",
            text: "--- page behind the dialog (inert until it closes):",
            divider: "dialog",
          },
          rank: 99,
          tokens: 0,
        } as Entry,
        ...rest,
      ]
      : rest;

    const notes: string[] = [];
    if (o.scope === "viewport") {
      const { above, below } = walk;
      const screens = (n: number) => `${n.toFixed(1)} screens`;
      if (above + below > 0) {
        const parts: string[] = [];
        if (below) {
          parts.push(
            `${below} interactive element${below === 1 ? "" : "s"} below (${
              screens(walk.main.screensBelow)
            })`,
          );
        }
        if (above) parts.push(`${above} above`);
        notes.push(`… ${parts.join(", ")}; scroll or use find`);
      } else if (walk.main.screensBelow >= 0.5) {
        notes.push(`… ${screens(walk.main.screensBelow)} more text below; scroll or use read`);
      }
      const beside = besideNote(walk.main);
      if (beside) notes.push(beside);
    }
    if (compact.leftLines > 0) {
      notes.push(`… (+N lines): text shortened in this whole-page view; use read for all of it`);
    }
    if (walk.scrollers.length > 0) {
      const list = walk.scrollers.slice(0, 4).map((s) => {
        const by = `; scroll with [${this.#ids.assign(s.frame, s.token, s.lid).id}]`;
        return `${JSON.stringify(s.name)} (${s.total} item${
          s.total === 1 ? "" : "s"
        }: ${s.above} above, ${s.below} below${by})`;
      });
      notes.push(`… more inside scrollable areas: ${list.join(", ")}; use find`);
    }
    const noteTokens = notes.reduce((n, t) => n + estimateTokens(t) + 1, 0);
    const reserve = 40; // the line that says what the budget left out
    const structural = entries.filter((e) => e.rank === 99).length * 12;
    // Elements and headings on screen may use the whole budget; plain text and what is only
    // near the screen (the margin band) fill at most EXTRA_SHARE of it.
    const keep = fitBudget(
      entries.map((e) => (e.rank === 99 ? { tokens: 0, rank: -1 } : e)),
      Math.max(0, o.tokenBudget - noteTokens - reserve - structural),
      {
        from: 4,
        budget: Math.max(0, o.tokenBudget * EXTRA_SHARE - noteTokens - reserve - structural),
      },
    );
    let leftEls = 0, leftText = 0;
    const lines: SummaryLine[] = [];
    entries.forEach((e, i) => {
      if (keep[i]) lines.push(e.line);
      else if (e.line.kind === "element") leftEls++;
      else leftText++;
    });
    // A frame header with nothing kept after it (before the next header) goes too.
    const tidy = lines.filter((l, i) =>
      !(l.kind === "note" && l.divider === "frame" &&
        (i + 1 >= lines.length || lines[i + 1]!.kind === "note"))
    );
    if (leftEls + leftText > 0) {
      const parts = [
        leftEls ? `${leftEls} element${leftEls === 1 ? "" : "s"}` : "",
        leftText ? `${leftText} text line${leftText === 1 ? "" : "s"}` : "",
      ].filter(Boolean);
      notes.push(`… left out to fit the token budget: ${parts.join(", ")}; use find or read`);
    }
    for (const text of notes) tidy.push({ kind: "note", text });
    return tidy;
  }

  async #drawOverlay(walk: PageWalk, lines: SummaryLine[]): Promise<void> {
    const shown = new Set<number>();
    for (const l of lines) if (l.kind === "element") shown.add(l.element.id);
    const byFrame = new Map<Frame, [number, number][]>();
    for (const e of walk.entries) {
      if (e.kind !== "item" || e.item.kind !== "el") continue;
      const { id } = this.#ids.assign(e.frame, e.token, e.item.lid);
      if (!shown.has(id)) continue;
      let list = byFrame.get(e.frame);
      if (!list) byFrame.set(e.frame, list = []);
      list.push([e.item.lid, id]);
    }
    await Promise.all([...byFrame].map(async ([frame, pairs]) => {
      try {
        await inRealm(isolatedRealm(frame), "drawOverlay", pairs);
        this.#overlaid.add(frame);
      } catch {
        // The frame went away: nothing to label.
      }
    }));
  }

  async #clearOverlay(): Promise<void> {
    const frames = [...this.#overlaid];
    this.#overlaid.clear();
    await Promise.all(
      frames.map((f) =>
        f.detached ? undefined : inRealm(isolatedRealm(f), "clearOverlay").catch(() => {
          // The document was replaced: its overlay went with it.
        })
      ),
    );
  }
}

/**
 * A catch handler: the fallback when the document was replaced while it was asked (the page
 * navigated; the next observation sees the new one), else the error again (a closed browser).
 */
function unlessNavigating<T>(fallback: T): (error: unknown) => T {
  return (error) => {
    if (isNavigationError(error)) return fallback;
    throw error;
  };
}

function position(y: number): string {
  if (y < -0.05) return ` (${(-y).toFixed(1)} screens up)`;
  if (y > 1) return ` (${(y - 1).toFixed(1)} screens down)`;
  return "";
}

function shortUrl(url: string): string {
  return url.length > 70 ? url.slice(0, 69) + "…" : url;
}

/**
 * Pages wider than the window: a few pixels of overflow are layout noise, this much (a quarter
 * of a screen) is content a person scrolls sideways to read.
 */
const BESIDE_MIN_SCREENS = 0.25;

/** `… 1.3 screens more to the right; scroll right`, when the page goes on beside the window. */
function besideNote(main: { screensLeft: number; screensRight: number }): string | undefined {
  const parts: string[] = [];
  if (main.screensLeft >= BESIDE_MIN_SCREENS) {
    parts.push(`${main.screensLeft.toFixed(1)} screens to the left`);
  }
  if (main.screensRight >= BESIDE_MIN_SCREENS) {
    parts.push(`${main.screensRight.toFixed(1)} screens to the right`);
  }
  if (parts.length === 0) return undefined;
  const way = main.screensRight >= BESIDE_MIN_SCREENS ? "right" : "left";
  return `… the page goes on beside the window: ${parts.join(", ")}; scroll ${way}`;
}
