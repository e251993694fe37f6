import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startLiveCli } from "./support/live_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";
import { until } from "./support/until.ts";
import { wallFrames } from "./support/wall_frames.ts";

Deno.test("with --ui a person solves a CAPTCHA on the live view's picture of the page: a click there and typed keys reach the page, the picture follows each, and Resume continues the run to done", async () => {
  await using site = startFixtureServer({ routes: [wallFrames] });
  const checked = Promise.withResolvers<void>();
  await using model = startScriptedModel([
    // Asked only once the check is passed; it waits while the test looks at the live view.
    async (req) => {
      await checked.promise;
      return { tool: "click", args: { id: idOf(req, /<button> Log in/) } };
    },
    (req) => ({
      tool: "done",
      args: { result: /Logged in with code \w+/.exec(req.user)?.[0] ?? "?" },
    }),
  ]);
  const page = site.url("/walls/captcha_live.html");
  await using cli = startLiveCli({ args: [`log in on ${page}`], modelUrl: model.baseUrl });
  try {
    const url = await cli.url();
    const post = (path: string, body: unknown) =>
      fetch(`${url.origin}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${url.searchParams.get("token")}` },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));

    await using viewer = await BrowserSession.start({ headless: true });
    const view = pageOf(viewer);
    await view.goto(url.href);
    const shown = (what = "shown") =>
      view.$eval(".wall img", (img, what) => Number((img as HTMLElement).dataset[what] ?? 0), what);
    await until(
      "the hand-off's picture",
      async () => (await view.$(".wall img")) && await shown() > 0,
    ).catch(async (error) => {
      const token = url.searchParams.get("token");
      const state = await fetch(`${url.origin}/api/state?token=${token}`).then((r) => r.text());
      const shot = await fetch(`${url.origin}/api/screenshot?token=${token}&run=run-1`)
        .then(async (r) => `${r.status} ${r.status === 200 ? "" : await r.text()}`);
      const runs = await view.$eval("main", (m) => (m as HTMLElement).innerText);
      throw new Error(
        `${error.message}\nstate: ${state}\nscreenshot: ${shot}\npage: ${runs}\nstderr: ${cli.stderr()}`,
      );
    });
    const panel = await view.$eval(".wall", (p) => (p as HTMLElement).innerText);
    assert.ok(
      panel.includes(`A human-verification check (CAPTCHA picture) blocks ${page}.`),
      panel,
    );
    assert.match(panel, /The agent never solves these: solve it yourself/);
    assert.equal(model.requests.length, 0, "the model does not see the page meanwhile");
    const state =
      await (await fetch(`${url.origin}/api/state?token=${url.searchParams.get("token")}`)).json();
    assert.equal(state.runs[0].status, "waiting");
    assert.equal(state.runs[0].verification.name, "CAPTCHA picture");
    assert.deepEqual((await post("/api/input", { kind: "down", x: 2, y: 0.5 })).status, 400);

    // A click on the picture, on the field in the page's lower part: it reaches the page (the
    // field takes the focus) and the picture is taken again.
    const img = (await view.$(".wall img"))!;
    const box = (await img.boundingBox())!;
    await img.click({ offset: { x: box.width * 0.5, y: box.height * 0.8 } });
    await until("a new picture after the click", async () => await shown("afterInput") === 1);
    // Typed keys go to the page's focused field, a new picture after each.
    await view.keyboard.type("x7Kq2");
    await until("new pictures after the keys", async () => await shown("afterInput") === 6);

    await view.click(".wall button");
    // The run goes on: the check is passed, and the model is asked about the page.
    await until("the model asked again", () => model.requests.length > 0);
    // Once resumed, the page takes no more input from the live view.
    assert.equal((await post("/api/input", { kind: "text", text: "x" })).status, 409);
    assert.equal((await post("/api/resume", {})).status, 409);
    checked.resolve();

    const { code, stdout } = await cli.exited();
    assert.equal(code, 0, cli.stderr());
    assert.equal(stdout, "Logged in with code x7Kq2\n");
    assert.match(
      cli.stderr(),
      /A human-verification check \(CAPTCHA picture\) blocks http:\S+ \(input/,
    );
    assert.match(cli.stderr(), /resumed in the live view/);
    assert.match(cli.stderr(), /the check is passed: the run goes on/);
    const trace = await Deno.readTextFile(`${cli.dir}/run/trace.jsonl`);
    assert.match(trace, /\{"type":"answer","by":"page"\}/);
  } finally {
    checked.resolve();
  }
});
