import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startLiveCli } from "./support/live_cli.ts";
import { startScriptedModel } from "./support/scripted_model.ts";
import { idIn } from "./support/summary.ts";
import { until } from "./support/until.ts";

const html = (body: string) => new Response(body, { headers: { "content-type": "text/html" } });

Deno.test("the live view names steps as the terminal does, shows the model thinking, makes Allow the risky choice, says finished, and the report shows the final page and who allowed the held action", async () => {
  await using site = startFixtureServer({
    routes: [(_req, url) => {
      if (url.pathname === "/start") {
        return html(`<title>Start</title><a href="/details">Open details</a>`);
      }
      if (url.pathname === "/details") {
        return html(`<title>Details</title><h1>Account</h1>
          <button onclick="document.querySelector('h1').textContent = 'Account deleted'">Delete account</button>`);
      }
    }],
  });
  const thinkingSeen = Promise.withResolvers<void>();
  await using model = startScriptedModel([
    (req) => ({ tool: "click", args: { id: idIn(req.user, "Open details") } }),
    // The model "thinks" until the test has seen the page say so.
    async (req) => {
      await thinkingSeen.promise;
      return { tool: "click", args: { id: idIn(req.user, "Delete account") } };
    },
    { tool: "done", args: { result: "Deleted" } },
  ]);
  await using cli = startLiveCli({
    args: [`tidy my account on ${site.url("/start")}`],
    modelUrl: model.baseUrl,
  });
  try {
    const url = (await cli.url()).href;
    // It opens the run folder's report.html: a local file.
    await using viewer = await BrowserSession.start({ headless: true, allow: { files: true } });
    const page = pageOf(viewer);
    const logged: string[] = [];
    const refused: string[] = [];
    page.on("console", (m) => void logged.push(`${m.type()}: ${m.text()}`));
    page.on("response", (r) => void (r.status() === 401 && refused.push(r.url())));
    await page.goto(url);
    const text = () => page.$eval("main", (m) => (m as HTMLElement).innerText);

    // The model is thinking about step 3: the page says so.
    await until(
      "the thinking line",
      async () => (await text()).includes("Step 3: the model is thinking"),
    );
    // Steps are named as the terminal names them, not as JSON.
    const tools = await page.$$eval(".tool", (els) => els.map((e) => e.textContent ?? ""));
    assert.deepEqual(tools.length, 2, tools.join(" | "));
    assert.equal(tools[0], `navigate ${site.url("/start")}`);
    assert.match(tools[1]!, /^click \[\d+\] "Open details"$/);
    assert.ok(tools.every((t) => !t.includes("{")), tools.join(" | "));
    thinkingSeen.resolve();

    // The held click: Refuse comes first and has the focus; Allow looks like the risk it is.
    await until(
      "the held action's buttons",
      async () => (await page.$("button.risky")) !== null,
    );
    assert.equal(await page.$eval("main", () => document.activeElement?.textContent), "Refuse");
    const buttons = await page.$$eval(".ask button", (els) => els.map((e) => e.textContent));
    assert.deepEqual(buttons, ["Refuse", "Allow"]);
    const allow = await page.$eval("button.risky", (b) => ({
      text: b.textContent,
      background: getComputedStyle(b).backgroundColor,
      color: getComputedStyle(b).color,
      described: document.getElementById(b.getAttribute("aria-describedby") ?? "")?.textContent,
    }));
    assert.equal(allow.text, "Allow");
    assert.equal(allow.background, "rgb(183, 28, 28)");
    assert.equal(allow.color, "rgb(255, 255, 255)");
    assert.match(allow.described ?? "", /may not be undone/);
    assert.notEqual(
      await page.$eval("button.safe", (b) => getComputedStyle(b).backgroundColor),
      allow.background,
    );
    await page.click("button.risky");

    const { code, stdout } = await cli.exited();
    assert.equal(code, 0, cli.stderr());
    assert.equal(stdout, "Deleted\n");
    // The command ended: the page says finished and stops reconnecting.
    await until(
      "finished",
      async () => (await page.$eval("#status", (s) => s.textContent)) === "Finished",
    );
    assert.equal(await page.evaluate("events.readyState"), 2, "the event stream is closed");
    assert.deepEqual(refused, [], "no request was refused with 401");
    // No 401, and no request to a server that is gone (a screenshot the agent's browser could
    // not take in time under load may still log a 503).
    assert.deepEqual(
      logged.filter((line) =>
        /\b401\b|Unauthorized|ERR_CONNECTION_REFUSED|ERR_INCOMPLETE/.test(line)
      ),
      [],
      logged.join("\n"),
    );

    // The report: the final page after the last action, the held action and who allowed it, and
    // no empty page row for the start page opened before the first look.
    await page.goto(`file://${cli.dir}/run/report.html`);
    const report = await page.$eval("body", (b) => (b as HTMLElement).innerText);
    assert.match(
      report,
      /Step 3: click \[\d+\] "Delete account" \(a deletion: the button says "Delete account"\): allowed in the live view/,
    );
    const final = await page.$eval("#final", (s) => ({
      text: (s as HTMLElement).innerText,
      picture: (s.querySelector("img") as HTMLImageElement | null)?.naturalWidth ?? 0,
    }));
    assert.match(final.text, /Final page, after the last action/);
    assert.match(
      final.text,
      new RegExp(`Details\\s+${site.url("/details").replaceAll(".", "\\.")}`),
    );
    assert.ok(final.picture > 0, "the final page's picture loads");
    const first = await page.$eval("#step-1", (s) => (s as HTMLElement).innerText);
    assert.match(first, /Step 1: navigate http:\/\/127\.0\.0\.1:\d+\/start/);
    assert.match(first, /opened before the first look at the page/);
    assert.doesNotMatch(first, /\bpage\s*\n|page 0|0 elements/);
  } finally {
    thinkingSeen.resolve(); // else the scripted model's open request keeps it from closing
  }
});
