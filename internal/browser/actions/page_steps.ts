/**
 * The steps that move the page: opening an address, scrolling the page or a container, and
 * bringing an element into view; and where a link leads.
 *
 * @module
 */
import type { ElementHandle } from "puppeteer-core";
import { ActionError, type ActionOutcome, BrowserError } from "../../entity/mod.ts";
import { type ActionEnv, type ActOptions, type Did, runAction } from "./action_runner.ts";
import { inRealm, onElement, type ScrollResult } from "../runtime/page_runtime.ts";
import { isolatedRealm } from "../runtime/realm.ts";

/** Loads a URL in the current tab; throws with the browser's reason when it cannot. */
export function openUrl(env: ActionEnv, url: string, options: ActOptions): Promise<ActionOutcome> {
  return runAction(env, options, async (page) => {
    let status = 0;
    try {
      const response = await page.goto(url, { waitUntil: "domcontentloaded", timeout: 30_000 });
      status = response?.status() ?? 0;
    } catch (cause) {
      const why = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
      throw new BrowserError(`Cannot open "${url}": ${why}`, { cause });
    }
    return `Opened ${url}${
      status >= 400 ? ` (HTTP ${status}: the server answered with an error)` : ""
    }`;
  });
}

/** Where the link `[id]` leads; throws when it is not a link to a page (disposes of `el`). */
export async function linkTarget(el: ElementHandle<Element>, id: number): Promise<string> {
  let href: string;
  try {
    href = await onElement(el, "linkHref");
  } finally {
    await el.dispose();
  }
  if (!href || !/^(https?|file):/.test(href)) {
    throw new ActionError("invalid_args", `Element [${id}] is not a link: open links only`);
  }
  return href;
}

/** Scrolls the page a screen up or down; throws when it is already at that end. */
export function scrollPage(
  env: ActionEnv,
  direction: "up" | "down",
  options: ActOptions,
): Promise<ActionOutcome> {
  return runAction(env, { ...options, scroll: true }, async (page) => {
    const screens = direction === "up" ? -0.8 : 0.8;
    const realm = () => isolatedRealm(page.mainFrame());
    const r = await inRealm(realm(), "scrollBy", null, screens);
    return scrolled(r, direction, () => inRealm(realm(), "scrollGrowth"));
  });
}

/**
 * Scrolls the scroll container around `[id]` a screen up or down, or with no direction scrolls
 * `[id]` into view.
 */
export async function scrollAround(
  el: ElementHandle<Element>,
  id: number,
  direction: "up" | "down" | undefined,
): Promise<Did | string> {
  if (!direction) {
    const inView = await onElement(el, "revealElement");
    return inView
      ? `Scrolled [${id}] into view`
      : `Scrolled towards [${id}]: it is still off screen`;
  }
  const r = await onElement(el, "scrollBy", direction === "up" ? -0.8 : 0.8);
  const frame = el.frame;
  return scrolled(r, direction, () => inRealm(isolatedRealm(frame), "scrollGrowth"));
}

/**
 * What a scroll did; one that reached the bottom of a list says so once the page settled, with
 * what the list gained meanwhile (`growth`), and fails when it could not move and nothing came.
 */
function scrolled(
  r: ScrollResult,
  direction: "up" | "down",
  growth: () => Promise<{ loaded: number; left: number } | null>,
): Did {
  const said = (left: number, loaded: number): Did => {
    const end = direction === "down" ? "bottom" : "top";
    if (r.moved === 0 && loaded > 0) {
      return {
        did: `Scrolled ${r.what} down: it was at the bottom; ${left} px more below now`,
        loaded,
        revealed: r.revealed,
      };
    }
    if (r.moved === 0) {
      throw new ActionError(
        "no_effect",
        `Cannot scroll ${direction}: ${r.what} is already at the ${end}`,
      );
    }
    const more = left <= 0
      ? `reached the ${end}`
      : `${left} px more ${direction === "down" ? "below" : "above"}`;
    const did = `Scrolled ${r.what} ${direction} ${Math.abs(r.moved)} px; ${more}`;
    return loaded > 0 ? { did, loaded, revealed: r.revealed } : { did, revealed: r.revealed };
  };
  if (!r.atBottom) return said(r.left, 0);
  const first = r.moved === 0 ? `Scrolled ${r.what} down` : said(r.left, 0).did;
  return {
    did: first,
    settled: async () => {
      // The document went away meanwhile (a navigation): nothing more to count.
      const g = await growth().catch(() => null);
      return said(g?.left ?? r.left, g?.loaded ?? 0);
    },
  };
}

/** Scrolls an element into the middle of the view, then disposes of its handle. */
export async function centre(el: ElementHandle<Element>, smooth: boolean): Promise<void> {
  try {
    await onElement(el, "centreElement", smooth);
  } finally {
    await el.dispose();
  }
}
