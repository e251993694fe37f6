import type { Page } from "puppeteer-core";
import type { SettleReason } from "../../entity/mod.ts";
import { pause } from "../shared/deadline.ts";
import { ENDLESS_TYPES, type NetworkWatch } from "./network.ts";
import { SETTLE } from "../shared/settle_policy.ts";
import type { Settled } from "./settled.ts";

/**
 * `--settle simple`, Playwright MCP's rule after an action: a fixed window
 * (`SETTLE.simpleWindowMs`); then, when the action's requests include a navigation of the main
 * frame, until the page has loaded, else until those requests have finished and another window
 * has passed. Capped by `capMs`, naming a page asked for that has not answered then. It needs
 * nothing in the page.
 */
export async function settleSimply(
  page: Page,
  network: NetworkWatch,
  start: number,
  capMs: number,
  signal?: AbortSignal,
): Promise<Settled> {
  const deadline = start + capMs;
  const left = () => Math.max(0, deadline - performance.now());
  const stop = () => signal?.aborted || page.isClosed() || left() <= 0;
  await pause(Math.min(SETTLE.simpleWindowMs, left()), signal).catch(() => {});
  const requests = network.sinceAction().filter(({ req }) =>
    !ENDLESS_TYPES.has(req.resourceType())
  );
  const navigated = requests.some(({ req }) =>
    req.isNavigationRequest() && req.frame() === page.mainFrame()
  );
  let reason: SettleReason = { kind: "quiet", quietMs: SETTLE.simpleWindowMs };
  if (navigated) {
    while (!stop()) {
      // A page asked for and not answered: the document that shows answers nothing meanwhile.
      const ready = network.pendingPage()
        ? ""
        : await page.mainFrame().evaluate(() => document.readyState).catch(() => "");
      if (ready === "complete") break;
      await pause(Math.min(SETTLE.pendingPollMs, left()), signal).catch(() => {});
    }
    reason = { kind: "request", url: page.url(), quietMs: 0 };
  } else if (requests.length > 0) {
    const open = () =>
      network.sinceAction().find(({ req, ended }) =>
        !ended && !ENDLESS_TYPES.has(req.resourceType()) && requests.some((r) => r.req === req)
      );
    let last = requests[requests.length - 1]!.req.url();
    for (let o = open(); o && !stop(); o = open()) {
      last = o.req.url();
      await pause(Math.min(SETTLE.pendingPollMs, left()), signal).catch(() => {});
    }
    await pause(Math.min(SETTLE.simpleWindowMs, left()), signal).catch(() => {});
    reason = { kind: "request", url: last, quietMs: SETTLE.simpleWindowMs };
  }
  const capped = performance.now() >= deadline && !signal?.aborted;
  const asked = network.pendingPage();
  const cap: SettleReason = asked
    ? { kind: "capped", waitingOn: asked.url, loading: true }
    : { kind: "capped" };
  return { ms: Math.round(performance.now() - start), capped, reason: capped ? cap : reason };
}
