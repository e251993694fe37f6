/**
 * The steps that move the page: opening an address, scrolling the page or a container, and
 * bringing an element into view; and where a link leads.
 *
 * @module
 */
import type { ElementHandle, Page } from "puppeteer-core";
import { ActionError, type ActionOutcome, BrowserError } from "../../entity/mod.ts";
import { type ActionEnv, type ActOptions, type Did, runAction } from "./action_runner.ts";
import { inRealm, onElement, type ScrollResult } from "../runtime/page_runtime.ts";
import { isolatedRealm } from "../runtime/realm.ts";
import type { PointerEnv } from "./actionability.ts";
import { perform, type Target } from "./pipeline.ts";
import { loadPage } from "../tabs/load_page.ts";

/** Where a scroll goes: a screen up or down, or sideways. */
export type ScrollDirection = "up" | "down" | "left" | "right";

/** What each direction is called where a scroll stops. */
const ENDS: Readonly<Record<ScrollDirection, { end: string; more: string }>> = Object.freeze({
  up: { end: "top", more: "above" },
  down: { end: "bottom", more: "below" },
  left: { end: "left end", more: "to the left" },
  right: { end: "right end", more: "to the right" },
});

const SIDEWAYS = new Set<ScrollDirection>(["left", "right"]);

/** Loads a URL in the current tab; throws with the browser's reason when it cannot. */
export function openUrl(env: ActionEnv, url: string, options: ActOptions): Promise<ActionOutcome> {
  return runAction(env, options, async (page) => {
    let status = 0;
    try {
      status = await loadPage(page, url) ?? 0;
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

/** Scrolls the page a screen up, down, left or right; throws when it is already at that end. */
export function scrollPage(
  env: ActionEnv,
  direction: ScrollDirection,
  options: ActOptions,
): Promise<ActionOutcome> {
  return runAction(env, { ...options, scroll: true }, async (page) => {
    const screens = direction === "up" || direction === "left" ? -0.8 : 0.8;
    const realm = () => isolatedRealm(page.mainFrame());
    const r = SIDEWAYS.has(direction)
      ? await inRealm(realm(), "scrollSideways", null, screens)
      : await inRealm(realm(), "scrollBy", null, screens);
    return scrolled(r, direction, () => inRealm(realm(), "scrollGrowth"));
  });
}

/**
 * Scrolls the scroll container around `[id]` a screen up, down, left or right, or with no
 * direction scrolls `[id]` into view; through the action pipeline ("scroll to": the element must
 * still be in the page).
 */
export function scrollAround(
  page: Page,
  target: Target,
  direction: ScrollDirection | undefined,
  env: PointerEnv,
): Promise<Did | string> {
  const { el, id } = target;
  return perform(page, target, "scroll to", env, async () => {
    if (!direction) {
      const inView = await onElement(el, "revealElement");
      return inView
        ? `Scrolled [${id}] into view`
        : `Scrolled towards [${id}]: it is still off screen`;
    }
    const screens = direction === "up" || direction === "left" ? -0.8 : 0.8;
    const r = SIDEWAYS.has(direction)
      ? await onElement(el, "scrollSideways", screens)
      : await onElement(el, "scrollBy", screens);
    const frame = el.frame;
    return scrolled(r, direction, () => inRealm(isolatedRealm(frame), "scrollGrowth"));
  });
}

/**
 * What a scroll did; one that reached the bottom of a list says so once the page settled, with
 * what the list gained meanwhile (`growth`), and fails when it could not move and nothing came.
 */
function scrolled(
  r: ScrollResult,
  direction: ScrollDirection,
  growth: () => Promise<{ loaded: number; left: number } | null>,
): Did {
  const said = (left: number, loaded: number): Did => {
    const end = ENDS[direction].end;
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
    const more = left <= 0 ? `reached the ${end}` : `${left} px more ${ENDS[direction].more}`;
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
