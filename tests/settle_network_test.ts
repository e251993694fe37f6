import assert from "node:assert/strict";
import type { HTTPRequest, Page } from "puppeteer-core";
import { NetworkWatch } from "../internal/browser/settle/network.ts";
import { SETTLE } from "../internal/browser/shared/settle_policy.ts";

// The request side of settling, driven by puppeteer's events in the orders Chromium sends them:
// a page the action asked for that becomes a download is aborted first, and the browser says the
// download began a few milliseconds later (tens on a busy machine; CI once settled in between
// and reported "Nothing on the page changed" for a click that downloaded a file).

/** A page that only lets the test emit its network events. */
function fakePage() {
  const handlers = new Map<string, (arg: unknown) => void>();
  const frame = {};
  const page = {
    on: (event: string, fn: (arg: unknown) => void) => handlers.set(event, fn),
    mainFrame: () => frame,
  } as unknown as Page;
  const emit = (event: string, arg: unknown) => handlers.get(event)?.(arg);
  return {
    page,
    /** The main frame asks for the page `url`; the browser answers with `status` (if given). */
    asks(url: string, status?: number): HTTPRequest {
      const req = {
        url: () => url,
        method: () => "GET",
        resourceType: () => "document",
        isNavigationRequest: () => true,
        frame: () => frame,
        response: () => status === undefined ? null : { status: () => status, request: () => req },
        failure: () => ({ errorText: "net::ERR_ABORTED" }),
      } as unknown as HTTPRequest;
      emit("request", req);
      if (status !== undefined) emit("response", req.response());
      return req;
    },
    /** The browser aborts the page asked for. */
    aborts: (req: HTTPRequest) => emit("requestfailed", req),
  };
}

Deno.test("a page that becomes a download holds settling until the download is announced", () => {
  const { page, asks, aborts } = fakePage();
  const watch = new NetworkWatch(page);
  watch.startAction();
  const req = asks("http://127.0.0.1/report.csv", 200);
  aborts(req);
  assert.equal(watch.holding(), req, "aborted, the download not announced yet: still held");
  watch.forget("http://127.0.0.1/report.csv"); // Browser.downloadWillBegin
  assert.equal(watch.holding(), undefined);
  watch.endAction();
});

Deno.test("a download announced before its page's abort, a 204 answer, and a newer page asked for hold nothing", () => {
  const { page, asks, aborts } = fakePage();
  const watch = new NetworkWatch(page);
  watch.startAction();
  const early = asks("http://127.0.0.1/early.csv", 200);
  watch.forget("http://127.0.0.1/early.csv");
  aborts(early);
  assert.equal(watch.holding(), undefined, "announced first");
  aborts(asks("http://127.0.0.1/nothing", 204));
  assert.equal(watch.holding(), undefined, "204 shows nothing and downloads nothing");
  aborts(asks("http://127.0.0.1/a.csv", 200));
  const next = asks("http://127.0.0.1/next.html");
  assert.equal(watch.holding(), next, "the page asked for next is waited for, not a download");
  watch.endAction();

  // The newer page asked for before the older one's abort arrives (a script replaced it).
  watch.startAction();
  const old = asks("http://127.0.0.1/old.html", 200);
  const newer = asks("http://127.0.0.1/newer.html");
  aborts(old);
  assert.equal(watch.holding(), newer);
  watch.endAction();
});

Deno.test("an aborted page holds no settle outside its action", () => {
  const { page, asks, aborts } = fakePage();
  const watch = new NetworkWatch(page);
  watch.startAction();
  aborts(asks("http://127.0.0.1/report.csv", 200));
  assert.ok(watch.holding());
  watch.endAction();
  assert.equal(watch.holding(), undefined, "a settle between actions");
  watch.startAction();
  assert.equal(watch.holding(), undefined, "the next action");
  watch.endAction();
});

Deno.test("a page aborted with no download announced holds settling no longer than downloadBeginMs", async () => {
  const { page, asks, aborts } = fakePage();
  const watch = new NetworkWatch(page);
  watch.startAction();
  aborts(asks("http://127.0.0.1/stopped", 200));
  assert.ok(watch.holding());
  await new Promise((r) => setTimeout(r, SETTLE.downloadBeginMs + 200));
  assert.equal(watch.holding(), undefined);
  watch.endAction();
});
