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
import { missedNote, type PageWalk, type WalkEntry, walkPage } from "./frame_walk.ts";
import { isNavigationError } from "../runtime/page_changed.ts";
import { handleInRealm } from "../runtime/page_runtime.ts";
import { type ElementItem, type PageItem, WHERE } from "../shared/walk_types.ts";
import { hiddenMatches } from "./hidden_matches.ts";
import { compactPage } from "./page_scope.ts";
import { readPages } from "./read_pages.ts";
import { FIND_QUOTE, valuePart } from "./value_part.ts";
import { norm } from "../shared/text.ts";
import { isolatedRealm } from "../runtime/realm.ts";
import { capturePicture } from "../screenshots/screenshot.ts";
import { type FramePairs, OverlayLabels } from "../screenshots/overlay_labels.ts";
import { DEFAULT_TOKEN_BUDGET } from "./token_budget.ts";
import { divider, fitLines, type Ranked, rankOf } from "./line_ranks.ts";
import { closingNotes } from "./view_notes.ts";

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
/** Longest run of text read returns (the rest is cut, marked `…`); pages split what it returns. */
const MAX_READ_TEXT = 20000;
/** Longest field value find shows (a value the view cuts is read whole with find). */
const MAX_FIND_VALUE = 4000;

/** A summary line made from a walk's item, and its size in tokens. */
interface Made {
  line: SummaryLine;
  tokens: number;
  /** The line ranked, on a page without and with a modal dialog (made on first use). */
  ranked: [Ranked?, Ranked?];
}

/**
 * Observes pages as numbered DOM summaries and resolves the numbers back to elements. One per
 * run: numbers are never reused for another element.
 */
export class PageObserver {
  readonly #ids = new ElementIds();
  readonly #options: ObserveOptions;
  /** The numbers drawn on the pages (`--overlay`, `--vision`), also for closer pictures. */
  readonly labels = new OverlayLabels();
  /** What each item of earlier observations became (see {@link PageObserver.#made}). */
  readonly #madeOf = new WeakMap<PageItem, Made>();
  /** Each element line's text as `renderElement` wrote it when its line was made. */
  readonly #textOf = new WeakMap<ObservedElement, string>();

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
    await this.labels.clear();
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
    // Element lines already written when they were made are not written again.
    const summary = renderSummary(lines, (el) => this.#textOf.get(el));
    const state: BrowserState = { url: page.url(), title, lines, summary };
    if (o.overlay || o.vision) await this.labels.draw(this.#numbered(walk, lines));
    if (o.vision) {
      const shot = await capturePicture(page, { format: "jpeg", quality: 70 })
        .catch(unlessNavigating(undefined));
      if (shot) {
        state.image = { mimeType: "image/jpeg", base64: shot.base64, geometry: shot.geometry };
      }
      if (!o.overlay) await this.labels.clear();
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
      const beside = this.#beside(entry);
      // A text found with an ID to scroll to is listed with it, as an element is.
      const id = line.kind === "element" ? line.element.id : beside.id;
      const render = (el: ObservedElement) => renderElement({ ...el, level: 0 }) + where;
      let shown = (line.kind === "element"
        ? render(line.element)
        : `${id ? `[${id}] ` : ""}"${line.text}"${where}`) + beside.text;
      count++;
      let t = estimateTokens(shown) + 1;
      // A long value found by its text (not by the field's name), or one that does not fit, is
      // quoted where it shows the text.
      const part = line.kind === "element" &&
          (tokens + t > limit || !norm(line.element.label).includes(norm(text)))
        ? valuePart(line.element, text, FIND_QUOTE)
        : undefined;
      if (part) {
        shown = render(part) + beside.text;
        t = estimateTokens(shown) + 1;
      }
      if (tokens + t > limit) {
        cut++;
        continue;
      }
      tokens += t;
      matches.push(id ? { text: shown, id } : { text: shown });
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
    const missed = missedNote(walk);
    const head = count === 0
      ? `No ${
        role ? `${role} elements matching` : hidden ? "visible matches for" : "matches for"
      } ${JSON.stringify(text)} on the page${missed}${hidden ? ":" : ""}`
      : `${count} ${what} ${JSON.stringify(text)}${
        cut ? ` (first ${count - cut} shown)` : ""
      }${missed}:`;
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
      // A long run (a text area's log, a long code listing) is paged, not cut.
      maxText: MAX_READ_TEXT,
      maxLabel: MAX_LABEL,
    });
    return readPages(walk, options, this.#options.tokenBudget);
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
    if (line.kind === "element") this.#textOf.set(line.element, text);
    const made: Made = { line, tokens: estimateTokens(text) + 1, ranked: [] };
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
    for (
      const key of ["icon", "value", "valueLength", "valueFrom", "fresh", "level", "row"] as const
    ) {
      if (item[key] !== undefined) Object.assign(element, { [key]: item[key] });
    }
    return element;
  }

  /**
   * find: what to act on for a text match: the ID of its block (`id`: the line shows it first;
   * select_text, drag and click take it, and in a scroll panel `scroll` brings it into view),
   * and the controls in its row (`— same row: [4] …`).
   */
  #beside(entry: WalkEntry & { kind: "item" }): { text: string; id?: number } {
    const item = entry.item;
    if (item.kind !== "text") return { text: "" };
    const id = item.at === undefined
      ? undefined
      : this.#ids.assign(entry.frame, entry.token, item.at).id;
    const at = id === undefined ? {} : { id };
    if (item.near?.length) {
      const near = item.near.map((it) =>
        renderElement({ ...this.#element(entry.frame, entry.token, it), level: 0 })
      );
      return { text: ` — same row: ${near.join(", ")}`, ...at };
    }
    return {
      text: item.panel && id !== undefined ? ` — scroll with [${id}] to see it` : "",
      ...at,
    };
  }

  /** Lines in reading order (dialog first), cut to the token budget, with closing notes. */
  #compose(walk: PageWalk, o: ObserveOptions): SummaryLine[] {
    const compact = o.scope === "page"
      ? compactPage(walk.entries)
      : { entries: walk.entries, leftLines: 0 };
    const entries = this.#ranked(compact.entries, walk.main.modal);
    const notes = closingNotes(walk, {
      scope: o.scope,
      leftLines: compact.leftLines,
      idOf: (s) => this.#ids.assign(s.frame, s.token, s.lid).id,
    });
    return fitLines(entries, notes, o.tokenBudget);
  }

  /**
   * The walk's lines in reading order, ranked (see `LINE_RANKS`); with a modal dialog open,
   * the dialog's lines first, then a divider and the page behind it.
   */
  #ranked(walked: readonly WalkEntry[], modal: boolean): Ranked[] {
    const first: Ranked[] = [];
    const rest: Ranked[] = [];
    for (const e of walked) {
      if (e.kind === "frame") {
        const url = e.frame.url();
        const text = `--- frame${/^https?:/.test(url) ? ` ${shortUrl(url)}` : ""}`;
        (e.where & WHERE.dialog ? first : rest).push(divider(text, "frame"));
        continue;
      }
      const made = this.#made(e);
      if (!made) continue;
      const where = e.item.where;
      // The same item (an unchanged part of the page) has the same rank: kept with its line.
      const entry = made.ranked[modal ? 1 : 0] ??= {
        line: made.line,
        tokens: made.tokens,
        rank: rankOf({ where, line: made.line }, modal),
      };
      (modal && where & WHERE.dialog ? first : rest).push(entry);
    }
    if (!modal) return rest;
    return [
      ...first,
      divider("--- page behind the dialog (inert until it closes):", "dialog"),
      ...rest,
    ];
  }

  /** The elements the view lists, per frame, as the overlay numbers them. */
  #numbered(walk: PageWalk, lines: SummaryLine[]): FramePairs {
    const shown = new Set<number>();
    for (const l of lines) if (l.kind === "element") shown.add(l.element.id);
    const byFrame: FramePairs = new Map();
    for (const e of walk.entries) {
      if (e.kind !== "item" || e.item.kind !== "el") continue;
      const { id } = this.#ids.assign(e.frame, e.token, e.item.lid);
      if (!shown.has(id)) continue;
      let list = byFrame.get(e.frame);
      if (!list) byFrame.set(e.frame, list = []);
      list.push([e.item.lid, id]);
    }
    return byFrame;
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
