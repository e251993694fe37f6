/**
 * The perception figures of `bench_observe.ts` (issue 23): the share of interactive elements in
 * the default view that have neither text nor a name (an icon-only control nothing names), on
 * the saved real pages and on icon-heavy fixtures (`tests/fixtures/perception/`); and the default
 * view's tokens on the saved pages against what they were before issue 23.
 *
 * @module
 */
import type { Browser } from "puppeteer-core";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { PageObserver } from "../internal/browser/observe/observer.ts";
import type { SummaryLine } from "../internal/entity/mod.ts";
import type { Goal } from "./bench_goals.ts";

/** The icon-heavy fixtures, served by the bench under `/fixtures/`. */
export const FIXTURES = new URL("../tests/fixtures/perception/", import.meta.url).pathname;

/**
 * The default view's o200k tokens per saved page before issue 23 (measured on main at
 * 292222c, 1280×800, the same bench): the view may grow by at most {@link MAX_GROWTH}.
 */
export const BASELINE_TOKENS: Readonly<Record<string, number>> = {
  "formasaurus-105": 236,
  "formasaurus-266": 316,
  "formasaurus-645": 806,
  "formasaurus-802": 1326,
  "formasaurus-908": 432,
  "readability-archive-of-our-own": 328,
  "readability-bbc-1": 291,
  "readability-guardian-1": 34,
  "readability-medium-3": 229,
  "readability-msn": 662,
  "readability-nytimes-5": 156,
  "readability-qq": 896,
  "readability-wikia": 671,
  "readability-wikipedia-2": 487,
  "readability-yahoo-2": 475,
  "synthetic-5000-interactive": 1329,
  "synthetic-shadow-iframe-500": 708,
};
const MAX_GROWTH = 0.1;
const MAX_UNNAMED = 0.02;

/** Interactive elements of a view, and those with neither text nor a name. */
export interface Named {
  elements: number;
  unnamed: number;
}

/**
 * Counts a view's interactive elements and those a model cannot tell by anything but their
 * place: no label, no icon name, and no value a person reads on it (a select shows its choice).
 * Pictures and shapes (role img) are not interactive: they are left out.
 */
export function namedIn(lines: readonly SummaryLine[]): Named {
  let elements = 0, unnamed = 0;
  for (const line of lines) {
    if (line.kind !== "element" || line.element.role === "img") continue;
    elements++;
    const el = line.element;
    const shows = (el.role === "combobox" || el.role === "listbox") && el.value !== undefined;
    if (!el.label && !el.icon && !shows) unnamed++;
  }
  return { elements, unnamed };
}

/** One fixture's default view: its elements, unnamed ones and tokens. */
export interface FixtureRow extends Named {
  name: string;
  tokens: number;
}

/** Observes each fixture (served at `origin` + `/fixtures/`) in its default view. */
export async function measureFixtures(browser: Browser, origin: string): Promise<FixtureRow[]> {
  const names = [...Deno.readDirSync(FIXTURES)]
    .filter((e) => e.isFile && e.name.endsWith(".html"))
    .map((e) => e.name)
    .sort();
  const rows: FixtureRow[] = [];
  for (const name of names) {
    const page = await browser.newPage();
    await page.goto(`${origin}/fixtures/${name}`, { waitUntil: "load" });
    const state = await new PageObserver().observe(page);
    rows.push({ name, tokens: countTokens(state.summary), ...namedIn(state.lines) });
    await page.close();
  }
  return rows;
}

/** The perception goals: unnamed share, and the default view's growth on the saved pages. */
export function perceptionGoals(
  pages: readonly (Named & { name: string; tokens: number })[],
  fixtures: readonly FixtureRow[],
): Goal[] {
  const share = (rows: readonly Named[]) => {
    const els = rows.reduce((n, r) => n + r.elements, 0);
    const un = rows.reduce((n, r) => n + r.unnamed, 0);
    return { els, un, x: un / Math.max(1, els) };
  };
  const real = pages.filter((r) => !r.name.startsWith("synthetic"));
  const all = share([...real, ...fixtures]);
  const fx = share(fixtures);
  const growth = pages.flatMap((r) => {
    const name = r.name.replace(/\.html$/, "");
    const before = BASELINE_TOKENS[name];
    return before ? [{ name, x: r.tokens / before - 1 }] : [];
  });
  const worst = growth.reduce((a, b) => (b.x > a.x ? b : a), { name: "none", x: -Infinity });
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  return [
    {
      goal:
        "default view: interactive elements with neither text nor a name, real pages + icon fixtures",
      measured: `${pct(all.x)} (${all.un} of ${all.els}; fixtures ${fx.un} of ${fx.els})`,
      target: `< ${pct(MAX_UNNAMED)}`,
      met: all.els > 0 && all.x < MAX_UNNAMED,
    },
    {
      goal: "default view tokens vs before issue 23, every saved page",
      measured: `worst ${worst.x >= 0 ? "+" : ""}${pct(worst.x)} (${worst.name}), ${
        growth.filter((g) => g.x > MAX_GROWTH).length
      } of ${growth.length} over`,
      target: `≤ +${pct(MAX_GROWTH)}`,
      met: growth.length > 0 && worst.x <= MAX_GROWTH,
    },
  ];
}

/** Prints each fixture's unnamed elements and tokens, one line. */
export function printFixtures(fixtures: readonly FixtureRow[]): void {
  console.log(
    `\nIcon-heavy fixtures (tests/fixtures/perception), default view: ${
      fixtures.map((f) =>
        `${f.name.replace(/\.html$/, "")} ${f.unnamed}/${f.elements} unnamed, ${f.tokens} tok`
      )
        .join("; ")
    }. Unnamed: an interactive element with no label, no icon name and no shown choice.`,
  );
}
