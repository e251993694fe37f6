import type { Route } from "./fixture_server.ts";

/**
 * The server side of the settle pages (`tests/fixtures/settle/`): answers that take the time the
 * page asks for, so a page can depend on a request of a known length.
 *
 * - `GET /settle-api/slow?ms=N&text=T`: `T` (default `Answer after N ms`) after N ms;
 * - `GET /settle-api/poll`: an empty answer at once (a page's polling);
 * - `GET /settle-api/posts?from=K&ms=N`: ten post titles from K on, as JSON, after N ms;
 * - `POST /settle-api/submit?ms=N`: a page thanking for the form, after N ms;
 * - `GET /settle-api/events`: an event stream that sends one event and never ends;
 * - `GET /settle-api/collect?ms=N`: an analytics hit, answered after N ms;
 * - `GET /settle-api/report.csv`: a file to download (`report.csv`, as an attachment);
 * - `GET /settle-api/page?ms=N[&busy=B]`: a page titled "Slow page", after N ms (a server slow
 *   to answer); `busy`: its script then keeps the main thread busy for B ms as it loads.
 *
 * @example
 * ```ts
 * await using site = startFixtureServer({ routes: [settleApi] });
 * ```
 */
export const settleApi: Route = async (req, url) => {
  if (!url.pathname.startsWith("/settle-api/")) return undefined;
  const ms = Math.min(10_000, Number(url.searchParams.get("ms") ?? "0") || 0);
  // A client that leaves (a page closed, the browser gone) ends the wait: shutdown is prompt.
  const wait = () =>
    new Promise<void>((r) => {
      const timer = setTimeout(r, ms);
      req.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        r();
      });
    });
  switch (url.pathname.slice("/settle-api/".length)) {
    case "slow":
      await wait();
      return new Response(url.searchParams.get("text") ?? `Answer after ${ms} ms`);
    case "poll":
      return new Response(null, { status: 204 });
    case "collect":
      await wait();
      return new Response(null, { status: 204 });
    case "events": {
      const body = new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode("data: hello\n\n"));
        },
        cancel() {},
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    case "report.csv": {
      const attachment = 'attachment; filename="report.csv"';
      return new Response("month,total\n", { headers: { "content-disposition": attachment } });
    }
    case "posts": {
      await wait();
      const from = Number(url.searchParams.get("from") ?? "1") || 1;
      const posts = Array.from({ length: 10 }, (_, i) => `Post ${from + i}`);
      return Response.json(posts);
    }
    case "page": {
      await wait();
      const busy = Number(url.searchParams.get("busy") ?? "0") || 0;
      const script = busy
        ? `<script>const end = Date.now() + ${busy}; while (Date.now() < end);</script>`
        : "";
      return new Response(
        '<!doctype html><html lang="en"><title>Slow page</title><h1>The slow page</h1>' +
          `${script}</html>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      );
    }
    case "submit": {
      await req.body?.cancel();
      await wait();
      return new Response(
        '<!doctype html><html lang="en"><title>Thanks</title><h1>Thanks for your message</h1>' +
          "<p>We answer within a day.</p></html>",
        { headers: { "content-type": "text/html; charset=utf-8" } },
      );
    }
  }
  return new Response("Not found", { status: 404 });
};
