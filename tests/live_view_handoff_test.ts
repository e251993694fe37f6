import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startLiveCli } from "./support/live_cli.ts";
import { startScriptedModel } from "./support/scripted_model.ts";
import { idIn } from "./support/summary.ts";
import { until } from "./support/until.ts";
import { wallFrames } from "./support/wall_frames.ts";

const html = (body: string) => new Response(body, { headers: { "content-type": "text/html" } });

/** Where things are on the live view now, in the window's coordinates. */
function layout(page: Page) {
  return page.evaluate(() => {
    const box = (node: Element | null) => {
      const r = node!.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, width: r.width, height: r.height };
    };
    const resume = [...document.querySelectorAll(".wall button")]
      .find((b) => b.textContent === "Resume") ?? null;
    const pictures = [...document.images].filter((img) => {
      const r = img.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(img).visibility !== "hidden";
    });
    return {
      innerWidth,
      innerHeight,
      scrollY,
      scrollWidth: document.documentElement.scrollWidth,
      panel: box(document.querySelector(".wall")),
      picture: box(document.querySelector(".wall img")),
      resume: box(resume),
      pictures: pictures.length,
    };
  });
}

/** Two frames: what a resize changes is laid out. */
const settled = (page: Page) =>
  page.evaluate(() =>
    new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
  );

Deno.test("the live view's hand-off in a real browser: stderr names the live view when no terminal can take the check, the step that led to the check shows, the panel fits above the fold at 1280×720 and 400 px with the picture drawn once, a press on a picture partly out of view is sent where it was pressed, Resume on an unsolved check says it is still there, and once solved the steps, the trace and the report say who solved it and how long it took", async (t) => {
  await using site = startFixtureServer({
    routes: [wallFrames, (_req, url) => {
      if (url.pathname === "/start") {
        return html(
          `<title>Shop</title><h1>Shop</h1><a href="/walls/captcha_live.html">Sign in</a>`,
        );
      }
    }],
  });
  const release = Promise.withResolvers<void>();
  await using model = startScriptedModel([
    (req) => ({ tool: "click", args: { id: idIn(req.user, "Sign in") } }),
    // Asked once the check is passed; it waits while the test looks at the live view.
    async (req) => {
      await release.promise;
      return { tool: "done", args: { result: /Logged in with code \w+/.exec(req.user)?.[0] } };
    },
  ]);
  // The screenshots stay for people to look at: the test's own folder, never the repository.
  const shots = await Deno.makeTempDir({ prefix: "browser-agent-live-view-" });
  console.log(`live view screenshots: ${shots}`);
  await using cli = startLiveCli({
    args: [`sign in on ${site.url("/start")}`],
    modelUrl: model.baseUrl,
  });
  try {
    const url = (await cli.url()).href;
    // It opens the run folder's report.html: a local file.
    await using viewer = await BrowserSession.start({ headless: true, allow: { files: true } });
    const page = pageOf(viewer);
    await page.setViewport({ width: 1280, height: 720 });
    await page.goto(url);
    const count = (what: string) =>
      page.$eval(".wall img", (img, what) => Number((img as HTMLElement).dataset[what] ?? 0), what);
    await until(
      "the hand-off's picture",
      async () => (await page.$(".wall img")) && count("shown"),
    );

    await t.step(
      "without a terminal, stderr says the run waits for the live view at its URL",
      () => {
        assert.ok(
          cli.stderr().includes(
            `the run waits for a person to solve it in the live view: ${url}\n`,
          ),
          cli.stderr(),
        );
      },
    );

    await t.step("the step that led to the check shows, and the panel names it", async () => {
      const tools = await page.$$eval(".tool", (els) => els.map((e) => e.textContent ?? ""));
      assert.match(tools.at(-1)!, /^click \[\d+\] "Sign in"$/);
      assert.match(
        await page.$eval(".wall .after", (p) => p.textContent ?? ""),
        /^Met after step 2: click \[\d+\] "Sign in"$/,
      );
    });

    await t.step(
      "at 1280×720 and 400 px the panel, its picture and Resume fit above the fold, nothing overflows, and the picture is drawn once",
      async () => {
        for (const [width, height] of [[1280, 720], [400, 720]] as const) {
          await page.setViewport({ width, height });
          await settled(page);
          await page.screenshot({ path: `${shots}/hand-off-${width}x${height}.png` });
          const at = await layout(page);
          const where = `${width}×${height}: ${JSON.stringify(at)}`;
          assert.equal(at.scrollY, 0, where);
          assert.ok(at.resume.top >= 0 && at.resume.bottom <= at.innerHeight, where);
          assert.ok(at.panel.bottom <= at.innerHeight, where);
          assert.ok(at.picture.bottom <= at.innerHeight, where);
          assert.ok(at.scrollWidth <= at.innerWidth, where);
          assert.equal(at.pictures, 1, where);
          // Large: at least half the window's width.
          assert.ok(at.picture.width >= at.innerWidth / 2, where);
        }
      },
    );

    await t.step(
      "a press on the picture partly out of view is sent where it was pressed",
      async () => {
        await page.setViewport({ width: 1280, height: 300 });
        await settled(page);
        // The picture's top part in the window, the rest below it.
        await page.evaluate(() =>
          scrollBy(0, document.querySelector(".wall img")!.getBoundingClientRect().top - 120)
        );
        const at = await layout(page);
        assert.ok(
          at.picture.top >= 0 && at.picture.bottom > at.innerHeight,
          `partly out of view: ${JSON.stringify(at)}`,
        );
        const sent: { kind: string; x: number; y: number }[] = [];
        page.on("request", (r) => {
          if (r.url().endsWith("/api/input")) sent.push(JSON.parse(r.postData() ?? "{}"));
        });
        const x = at.picture.left + at.picture.width * 0.3;
        const y = at.picture.top + at.picture.height * 0.177;
        await page.mouse.move(x, y);
        await page.mouse.down();
        await page.mouse.up();
        await until("the press and the release sent", () => sent.length === 2);
        for (const input of sent) {
          assert.ok(Math.abs(input.x - 0.3) < 0.01, JSON.stringify(sent));
          assert.ok(Math.abs(input.y - 0.177) < 0.01, JSON.stringify(sent));
        }
        assert.deepEqual(sent.map((s) => s.kind), ["down", "up"]);
        await page.screenshot({ path: `${shots}/hand-off-pressed-1280x300.png` });
      },
    );

    await t.step("Resume on a check that is still unsolved says so on the page", async () => {
      await page.setViewport({ width: 1280, height: 720 });
      await page.evaluate(() => scrollTo(0, 0));
      await page.click(".wall .panel-head button");
      const feedback = await until("the page says what came of Resume", async () => {
        const text = await page.$eval(".wall .feedback", (p) => p.textContent ?? "");
        return /Still there/.test(text) && text;
      });
      assert.equal(
        feedback,
        "Still there: the page still shows the check. Solve it on the picture, then press Resume again.",
      );
      // The page may be told before the terminal's line is read.
      await until("stderr says it is still there", () => /still there: /.test(cli.stderr()));
      assert.match(cli.stderr(), /still there: A human-verification check \(CAPTCHA picture\)/);
      await page.screenshot({ path: `${shots}/still-there-1280x720.png` });
    });

    await t.step(
      "solved, the run goes on; the step list, the trace and the report say who solved it and how long it took",
      async () => {
        const img = (await page.$(".wall img"))!;
        const box = (await img.boundingBox())!;
        const before = await count("afterInput");
        await img.click({ offset: { x: box.width * 0.5, y: box.height * 0.8 } });
        await until(
          "a new picture after the click",
          async () => await count("afterInput") > before,
        );
        await page.keyboard.type("x7Kq2");
        await page.keyboard.press("Enter");
        await until(
          "new pictures after the keys",
          async () => await count("afterInput") >= before + 7,
        );
        await page.click(".wall .panel-head button");
        const solved = await until("the solved check among the steps", async () => {
          const text = await page.$$eval("li.solved", (els) => els.map((e) => e.textContent ?? ""));
          return text[0];
        });
        assert.match(solved, /^✓Check solved in the live view · \d+ s/);
        // After the step that led to it.
        assert.equal(
          await page.$eval(
            "li.solved",
            (li) => (li.previousElementSibling as HTMLElement).dataset.n,
          ),
          "2",
        );
        assert.equal(await page.$(".wall"), null, "the panel is gone");
        await page.screenshot({ path: `${shots}/solved-1280x720.png` });
        release.resolve();

        const { code, stdout } = await cli.exited();
        assert.equal(code, 0, cli.stderr());
        assert.equal(stdout, "Logged in with code x7Kq2\n");

        const trace = (await Deno.readTextFile(`${cli.dir}/run/trace.jsonl`)).trim().split("\n")
          .map((line) => JSON.parse(line)).filter((line) => line.type === "hand_off");
        assert.deepEqual(
          trace.map((h) => [h.step, h.check.name, h.outcome, h.by]),
          [[3, "CAPTCHA picture", "still_there", "page"], [3, "CAPTCHA picture", "passed", "page"]],
        );
        for (const h of trace) {
          assert.ok(h.ms > 0 && !Number.isNaN(Date.parse(h.started)), JSON.stringify(h));
        }

        await page.goto(`file://${cli.dir}/run/report.html`);
        const report = await page.$eval("body", (b) => (b as HTMLElement).innerText);
        assert.match(report, /[\d.]+ s of it waiting for a person/);
        assert.match(
          report,
          /A person said it was solved in the live view after [\d.]+ s, but it was still there\./,
        );
        assert.match(
          report,
          /A person solved it in the live view after [\d.]+ s; the run went on\./,
        );
        // Between the step that led to it and the step after.
        const order = await page.$$eval(
          "section",
          (els) => els.map((e) => e.id || e.className),
        );
        assert.deepEqual(order.slice(0, 5), [
          "step-1",
          "step-2",
          "hand-off",
          "hand-off",
          "step-3",
        ]);
      },
    );
  } finally {
    release.resolve();
  }
});
