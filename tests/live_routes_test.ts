import assert from "node:assert/strict";
import { LiveHub } from "../internal/live/live_hub.ts";
import { LiveRoutes } from "../internal/live/live_routes.ts";
import { checkRequest } from "../internal/live/live_server.ts";

const ORIGIN = "http://127.0.0.1:9";

/** The routes over a hub with no run and no browser, and how to call them. */
function routes(panels = new Map()) {
  const ending = new AbortController();
  const live = new LiveRoutes(new LiveHub({ timeoutMs: 1000, panels }), ending.signal);
  const call = (method: string, path: string, body?: unknown) => {
    const request = new Request(`${ORIGIN}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return live.handle(request, new URL(request.url));
  };
  return { call, ending };
}

Deno.test("LiveRoutes.handle() answers the page's requests with no run and no browser", async () => {
  const { call } = routes();
  const page = await call("GET", "/");
  assert.match(page.headers.get("content-security-policy") ?? "", /^default-src 'self'/);
  assert.equal((await call("GET", "/api/state")).status, 200);
  const shot = await call("GET", "/api/screenshot");
  assert.deepEqual([shot.status, await shot.json()], [404, { error: "No browser is open" }]);
  const answer = await call("POST", "/api/answer", { text: "yes" });
  assert.deepEqual([answer.status, await answer.json()], [409, {
    error: "No question is waiting for an answer",
  }]);
  const tab = await call("POST", "/api/tabs/close", { tab: "tab-1" });
  assert.deepEqual([tab.status, await tab.json()], [404, {
    error: 'No tab "tab-1": see /api/state',
  }]);
  const none = await call("GET", "/nosuch");
  assert.deepEqual([none.status, await none.json()], [404, { error: "No route GET /nosuch" }]);
});

Deno.test("LiveRoutes.handle() says what to send when a body is wrong", async () => {
  const { call } = routes();
  const answer = await call("POST", "/api/answer", {});
  assert.deepEqual([answer.status, await answer.json()], [400, { error: 'Send {"text": "…"}' }]);
  const input = await call("POST", "/api/input", { kind: "wave" });
  assert.equal(input.status, 400);
  assert.match((await input.json()).error, /^Send \{"kind": "down"\|"up"/);
  const task = await call("POST", "/api/task", { text: "  " });
  assert.deepEqual(await task.json(), { error: 'Send {"text": "the task"}' });
});

Deno.test("LiveRoutes.handle() serves a module's panel and reports its failure as 500", async () => {
  const panels = new Map([["notes", {
    html: "<p>notes</p>",
    handle: () => Promise.reject(new Error("disk full")),
  }]]);
  const { call } = routes(panels);
  assert.equal(await (await call("GET", "/api/modules/notes/panel")).text(), "<p>notes</p>");
  const failed = await call("GET", "/api/modules/notes/list");
  assert.deepEqual([failed.status, await failed.json()], [500, {
    error: 'Module "notes" failed: disk full',
  }]);
  assert.equal((await call("GET", "/api/modules/other/panel")).status, 404);
});

Deno.test("LiveRoutes.handle() streams events from the start and ends the stream when ending", async () => {
  const { call, ending } = routes();
  const events = await call("GET", "/api/events");
  assert.equal(events.headers.get("content-type"), "text/event-stream");
  const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
  assert.equal((await reader.read()).value, "retry: 1000\n\n");
  ending.abort();
  let rest = await reader.read();
  while (!rest.done) rest = await reader.read();
  assert.equal(rest.done, true);
});

Deno.test("checkRequest() refuses a foreign host or origin and a wrong token, passes the right one", async () => {
  const hosts = new Set(["127.0.0.1:9", "localhost:9"]);
  const check = (headers: Record<string, string>, query = "") => {
    const request = new Request(`${ORIGIN}/api/state${query}`, { headers });
    return checkRequest(request, new URL(request.url), hosts, "secret");
  };
  const foreign = check({ host: "evil.test" }, "?token=secret");
  assert.deepEqual([foreign?.status, await foreign?.json()], [403, {
    error: 'Foreign host "evil.test"',
  }]);
  const origin = check({ host: "127.0.0.1:9", origin: "http://evil.test" }, "?token=secret");
  assert.equal(origin?.status, 403);
  const wrong = check({ host: "127.0.0.1:9" }, "?token=guess");
  assert.equal(wrong?.status, 401);
  assert.equal(check({ host: "localhost:9", authorization: "Bearer secret" }), undefined);
  assert.equal(check({ host: "127.0.0.1:9" }, "?token=secret"), undefined);
});
