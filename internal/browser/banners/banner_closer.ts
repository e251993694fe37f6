import type { Frame, Page } from "puppeteer-core";
import { type BannerClosing, inRealm } from "../runtime/page_runtime.ts";
import { withDeadline } from "../shared/deadline.ts";
import { isolatedRealm } from "../runtime/realm.ts";
import { WAITS } from "../shared/budgets.ts";

/** Passes per domain; the time they may take is `WAITS.bannerDomain` and `WAITS.bannerStep`. */
const MAX_PASSES = 3;

/**
 * Closes cookie and consent banners without the model: after a navigation and on the first
 * observation of a domain, in the main page, its frames and open shadow roots, preferring
 * "reject non-essential". Bounded per domain and per step; never blocks when nothing is found.
 *
 * @example
 * ```ts
 * const banners = new BannerCloser({ enabled: true, log: console.error });
 * const closed = await banners.afterLoad(page); // ['closed a cookie banner: "Reject all"']
 * ```
 */
export class BannerCloser {
  readonly #enabled: boolean;
  readonly #log: (line: string) => void;
  readonly #settle: (page: Page, capMs: number) => Promise<unknown>;
  readonly #domains = new Map<string, { passes: number; spent: number; lastAt: number }>();

  /**
   * `settle` waits for a page to settle after a banner was closed (the one settle predicate,
   * `settle/`), at most `capMs`.
   */
  constructor(options: {
    enabled: boolean;
    log?: (line: string) => void;
    settle?: (page: Page, capMs: number) => Promise<unknown>;
  }) {
    this.#enabled = options.enabled;
    this.#log = options.log ?? (() => {});
    this.#settle = options.settle ?? (() => Promise.resolve());
  }

  /**
   * Runs when the page shows a document not looked at yet (a navigation, a new tab, the first
   * observation), within the domain's budget. Returns one phrase per banner closed.
   */
  async afterLoad(page: Page): Promise<string[]> {
    if (!this.#enabled) return [];
    let domain: string;
    try {
      domain = new URL(page.url()).hostname;
    } catch {
      return [];
    }
    if (!domain) return []; // about:blank, data: URLs
    const state = this.#domains.get(domain) ?? { passes: 0, spent: 0, lastAt: -Infinity };
    this.#domains.set(domain, state);
    // A pass that found nothing a moment ago (the same step) would find nothing again.
    const recent = performance.now() - state.lastAt < WAITS.bannerRecheck.ms;
    if (recent || state.passes >= MAX_PASSES || state.spent >= WAITS.bannerDomain.ms) return [];
    const budget = Math.min(WAITS.bannerStep.ms, WAITS.bannerDomain.ms - state.spent);
    const started = performance.now();
    const out: string[] = [];
    while (state.passes < MAX_PASSES) {
      const left = budget - (performance.now() - started);
      if (left <= 0) break;
      state.passes++;
      const closed = await this.#pass(page, null, left);
      out.push(...closed);
      if (closed.length === 0) break;
    }
    state.spent += performance.now() - started;
    state.lastAt = performance.now();
    return out;
  }

  /**
   * Closes banners now, when asked to (the MCP tool): up to the passes of one domain, whatever
   * its budget so far, even when automatic closing is off. Returns one phrase per banner closed.
   */
  async closeNow(page: Page): Promise<string[]> {
    const out: string[] = [];
    const started = performance.now();
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const left = WAITS.bannerDomain.ms - (performance.now() - started);
      if (left <= 0) break;
      const closed = await this.#pass(page, null, left);
      out.push(...closed);
      if (closed.length === 0) break;
    }
    return out;
  }

  /**
   * Tries once to clear what covers the point (`x`, `y` in `frame`): a consent banner anywhere,
   * else the overlay's own close button. Used before retrying a click; bounded to one step.
   * Does nothing when banner closing is off.
   */
  async clearCover(page: Page, frame: Frame, at: { x: number; y: number }): Promise<string[]> {
    if (!this.#enabled) return [];
    return await this.#pass(page, { frame, at }, WAITS.bannerStep.ms);
  }

  async #pass(
    page: Page,
    cover: { frame: Frame; at: { x: number; y: number } } | null,
    budgetMs: number,
  ): Promise<string[]> {
    const started = performance.now();
    const frames = page.frames();
    const results = await Promise.all(frames.map((frame) =>
      withDeadline(
        inRealm(
          isolatedRealm(frame),
          "closeBanner",
          cover && cover.frame === frame ? cover.at : null,
        ),
        budgetMs,
      ).catch(() => null) // a frame that detaches, navigates or is too slow closes nothing
    ));
    const out: string[] = [];
    results.forEach((r: BannerClosing | null, i) => {
      if (!r) return;
      const where = frames[i] === page.mainFrame()
        ? ""
        : ` in a frame from ${originOf(frames[i]!)}`;
      const kind = r.choice === "close" ? "an overlay" : "a cookie banner";
      const how = r.choice === "reject"
        ? " (rejected non-essential cookies)"
        : r.choice === "accept"
        ? " (accepted: it offered no reject)"
        : "";
      const by = r.framework ? ` [${r.framework}]` : "";
      const line = `closed ${kind}${where}: clicked ${JSON.stringify(r.button)}${how}${by}`;
      this.#log(line);
      out.push(line);
    });
    if (out.length > 0) {
      const left = budgetMs - (performance.now() - started);
      if (left > 0) {
        await this.#settle(page, left).catch(() => {/* the tab closed after the click */});
      }
    }
    return out;
  }
}

function originOf(frame: Frame): string {
  try {
    return new URL(frame.url()).host;
  } catch {
    return "another site";
  }
}
