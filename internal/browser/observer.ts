import type { ElementHandle, Frame, Page } from "puppeteer-core";
import type { BrowserState, SummaryLine } from "../entity/mod.ts";
import { renderSummary } from "./dom_summary.ts";
import { ElementIds } from "./element_ids.ts";
import { elementByLocalId, type FrameObservation, observeFrame } from "./in_page.ts";
import { isolatedRealm } from "./realm.ts";

/**
 * Observes pages as numbered DOM summaries and resolves the numbers back to elements. One per
 * run: numbers are never reused for another element.
 */
export class PageObserver {
  readonly #ids = new ElementIds();

  /** Observes the page: URL, title and the numbered DOM summary, frames included. */
  async observe(page: Page): Promise<BrowserState> {
    const frames = page.frames();
    const main = page.mainFrame();
    const results = await Promise.all(frames.map((frame) => observeOne(frame, frame === main)));
    const lines: SummaryLine[] = [];
    let above = 0, below = 0;
    results.forEach((obs, i) => {
      if (!obs) return;
      const frame = frames[i]!;
      if (frame !== main && obs.items.length > 0) {
        lines.push({ kind: "note", text: `--- frame ${frame.url()}` });
      }
      for (const item of obs.items) {
        if (item.kind === "text") {
          const { text, heading } = item;
          lines.push(heading ? { kind: "text", text, heading } : { kind: "text", text });
          continue;
        }
        const { id } = this.#ids.assign(frame, obs.token, item.lid);
        const { tag, attrs, states, label, value } = item;
        const element = value === undefined
          ? { id, tag, attrs, states, label }
          : { id, tag, attrs, states, label, value };
        lines.push({ kind: "element", element });
      }
      if (frame === main) {
        above = obs.above;
        below = obs.below;
      }
    });
    if (above + below > 0) {
      const parts = [below ? `${below} below` : "", above ? `${above} above` : ""].filter(Boolean);
      lines.push({
        kind: "note",
        text: `… ${parts.join(", ")} (interactive elements off screen): scroll to see them`,
      });
    }
    const title = await page.title().catch(() => "");
    return { url: page.url(), title, lines, summary: renderSummary(lines) };
  }

  /** The element behind an ID from an observation; throws when it never existed or is gone. */
  async element(id: number): Promise<ElementHandle<Element>> {
    const ref = this.#ids.lookup(id);
    if (!ref) {
      throw new RangeError(`Element [${id}] does not exist: use an ID from the current page`);
    }
    let handle;
    try {
      handle = await isolatedRealm(ref.frame).evaluateHandle(elementByLocalId, ref.token, ref.lid);
    } catch {
      handle = undefined; // its frame is gone or navigated
    }
    const el = handle?.asElement();
    if (!el) {
      await handle?.dispose();
      throw new RangeError(`Element [${id}] is gone: the page changed, observe again`);
    }
    return el as ElementHandle<Element>;
  }
}

async function observeOne(frame: Frame, isMain: boolean): Promise<FrameObservation | undefined> {
  try {
    if (!isMain) {
      const owner = await frame.frameElement();
      const box = await owner?.boundingBox();
      await owner?.dispose();
      if (!box || box.width === 0 || box.height === 0) return undefined;
    }
    return await isolatedRealm(frame).evaluate(observeFrame, { margin: 0.25, maxText: 150 });
  } catch {
    // A frame that detaches or navigates while observed has nothing to show this time.
    return undefined;
  }
}
