import assert from "node:assert/strict";
import type { HTTPRequest, Page } from "puppeteer-core";
import { NetworkWatch } from "../internal/browser/settle/network.ts";
import { SETTLE } from "../internal/browser/settle/policy.ts";

// The request side of settling, driven by puppeteer's events in the order Chromium sends them:
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
  /** A request for the main frame's page: its answer's status, and how it failed, if it did. */
  const navigation = (url: string, status: number, failure?: string): HTTPRequest => {
    const req = {
      url: () => url,
      method: () => "GET",
      resourceType: () => "document",
      isNavigationRequest: () => true,
      frame: () => frame,
      response: () => ({ status: () => status, request: () => req }),
      failure: () => failure === undefined ? null : { errorText: failure },
    } as unknown as HTTPRequest;
    return req;
  };
  return {
    page,
    /** The action asks for the page `url`, not answered yet. */
    asks(url: string): HTTPRequest {
      const req = navigation(url, 200);
      emit("request", req);
      return req;
    },
    /** The action asks for `url`; the browser answers with `status`, then aborts it. */
    answeredThenAborted(url: string, status: number): HTTPRequest {
      const req = navigation(url, status, "net::ERR_ABORTED");
      emit("request", req);
      emit("response", req.response());
      emit("requestfailed", req);
      return req;
    },
  };
}

Deno.test("a page that becomes a download holds settling until the download is announced", () => {
  const { page, answeredThenAborted } = fakePage();
  const watch = new NetworkWatch(page);
  watch.startAction();
  const req = answeredThenAborted("http://127.0.0.1/report.csv", 200);
  assert.equal(watch.holding(), req, "aborted, the download not announced yet: still held");
  watch.forget("http://127.0.0.1/report.csv"); // Browser.downloadWillBegin
  assert.equal(watch.holding(), undefined);
  watch.endAction();
});

Deno.test("a download announced before its page's abort, a 204 answer, and a page asked for next hold nothing", () => {
  const { page, asks, answeredThenAborted } = fakePage();
  const watch = new NetworkWatch(page);
  watch.startAction();
  watch.forget("http://127.0.0.1/early.csv");
  answeredThenAborted("http://127.0.0.1/early.csv", 200);
  assert.equal(watch.holding(), undefined, "announced first");
  answeredThenAborted("http://127.0.0.1/nothing", 204);
  assert.equal(watch.holding(), undefined, "204 shows nothing and downloads nothing");
  answeredThenAborted("http://127.0.0.1/a.csv", 200);
  const next = asks("http://127.0.0.1/next.html");
  assert.equal(watch.holding(), next, "the page asked for next is waited for, not a download");
  watch.endAction();
});

Deno.test("a page aborted with no download announced holds settling no longer than downloadBeginMs", async () => {
  const { page, answeredThenAborted } = fakePage();
  const watch = new NetworkWatch(page);
  watch.startAction();
  answeredThenAborted("http://127.0.0.1/stopped", 200);
  assert.ok(watch.holding());
  await new Promise((r) => setTimeout(r, SETTLE.downloadBeginMs + 200));
  assert.equal(watch.holding(), undefined);
  watch.endAction();
});
