import assert from "node:assert/strict";
import { runTask } from "../internal/agent/mod.ts";
import {
  type ActionOutcome,
  blankTabState,
  type BrowserPort,
  BrowserSession,
  findChrome,
  PendingBrowser,
} from "../internal/browser/mod.ts";
import { FORWARDED, type Forwards, type Startable } from "../internal/browser/pending_browser.ts";
import { EXIT } from "../internal/config/mod.ts";
import { ModelClient } from "../internal/llm/mod.ts";
import { coreTools, ToolRegistry } from "../internal/tools/mod.ts";
import { startRemoteChromium } from "./support/remote_chromium.ts";
import { runCli } from "./support/run_cli.ts";
import { startScriptedModel } from "./support/scripted_model.ts";

function modelEnv(baseUrl: string): Record<string, string> {
  return { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: "scripted" };
}

/** A browser start the test ends by hand, with a browser that records the calls it gets. */
function manualStart() {
  const calls: string[] = [];
  const lost = new AbortController();
  const outcome = { did: "clicked" } as ActionOutcome;
  const fake = {
    connected: true,
    lost: lost.signal,
    observe: (options?: unknown) => {
      calls.push(`observe ${JSON.stringify(options ?? {})}`);
      return Promise.resolve({ url: "http://x/", title: "X", lines: [], summary: "real" });
    },
    dismissBanners: () => {
      calls.push("dismissBanners");
      return Promise.resolve(["a banner"]);
    },
    click: (id: number) => {
      calls.push(`click ${id}`);
      return Promise.resolve(outcome);
    },
    close: () => {
      calls.push("close");
      return Promise.resolve();
    },
  } as unknown as BrowserPort & { close(): Promise<void> };
  let resolve!: (b: typeof fake) => void, reject!: (e: unknown) => void;
  const starting = new Promise<typeof fake>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { calls, lost, fake, starting, resolve, reject, outcome };
}

Deno.test("PendingBrowser: the first look is the blank tab at once; everything else waits for the browser", async () => {
  const m = manualStart();
  const browser = new PendingBrowser(m.starting, { blank: true });
  assert.deepEqual(await browser.observe(), blankTabState());
  assert.deepEqual(await browser.dismissBanners(), []);
  assert.deepEqual(await browser.location(), { url: "about:blank", title: "" });
  assert.deepEqual(await browser.tabs(), [
    { index: 0, title: "", url: "about:blank", active: true },
  ]);
  assert.equal(browser.downloadMark(), 0);
  assert.equal(browser.connected, true);
  let clicked = false;
  const click = browser.click(3).then((o) => (clicked = true, o));
  // An observation with its own options needs the real page.
  const wide = browser.observe({ scope: "page" });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(clicked, false, "the click waited for the browser");
  assert.deepEqual(m.calls, []);
  m.resolve(m.fake);
  assert.equal(await click, m.outcome);
  assert.equal((await wide).summary, "real");
  // Once it runs, every call is the browser's own.
  assert.equal((await browser.observe()).summary, "real");
  assert.deepEqual(await browser.dismissBanners(), ["a banner"]);
  m.lost.abort(new Error("crashed"));
  assert.equal(browser.lost.aborted, true, "the browser's loss is the pending browser's");
  await browser.close();
  assert.deepEqual(m.calls, [
    "click 3",
    'observe {"scope":"page"}',
    "observe {}",
    "dismissBanners",
    "close",
  ]);
});

Deno.test("PendingBrowser: with pictures in observations (--vision), even the first look waits", async () => {
  const m = manualStart();
  const browser = new PendingBrowser(m.starting, { blank: false });
  const first = browser.observe();
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(m.calls, []);
  m.resolve(m.fake);
  assert.equal((await first).summary, "real");
  await browser.close();
});

Deno.test("PendingBrowser: a failed start aborts lost with its error, fails every call, and closes nothing", async () => {
  const m = manualStart();
  const browser = new PendingBrowser(m.starting, { blank: true });
  const click = browser.click(1);
  const error = new Error('Cannot start "/x/chrome": it crashed');
  m.reject(error);
  await assert.rejects(click, (e) => e === error);
  assert.equal(browser.lost.aborted, true);
  assert.equal(browser.lost.reason, error);
  await assert.rejects(browser.ready(), (e) => e === error);
  assert.equal(browser.connected, false);
  assert.throws(() => browser.throwIfGone(), (e) => e === error);
  // No blank tab is made up once the start failed.
  await assert.rejects(browser.observe(), (e) => e === error);
  await browser.close();
  assert.deepEqual(m.calls, []);
});

Deno.test("PendingBrowser forwards each call of its list to the browser once it runs, with its arguments", async () => {
  const calls: [string, unknown[]][] = [];
  const methods = Object.fromEntries(FORWARDED.map((name) => [name, (...args: unknown[]) => {
    calls.push([name, args]);
    return Promise.resolve(`${name} done`);
  }]));
  const started = { ...methods, connected: true, lost: new AbortController().signal };
  const browser = new PendingBrowser(Promise.resolve(started as unknown as Startable), {
    blank: true,
  });
  for (const name of FORWARDED) {
    const call = browser[name] as (...args: unknown[]) => Promise<unknown>;
    assert.equal(await call.call(browser, 7, "x"), `${name} done`);
  }
  assert.deepEqual(calls, FORWARDED.map((name) => [name, [7, "x"]]));
});

Deno.test("PendingBrowser's list: a port member left out of it fails the type check, and each is the session's", () => {
  type WithoutClick = readonly Exclude<typeof FORWARDED[number], "click">[];
  // @ts-expect-error: "click" is neither in the list nor answered by the pending browser itself
  const short: Forwards<WithoutClick> = true;
  const full: Forwards<typeof FORWARDED> = true;
  assert.deepEqual([short, full], [true, true]);
  for (const name of FORWARDED) {
    assert.equal(typeof BrowserSession.prototype[name], "function", `BrowserSession.${name}`);
  }
});

Deno.test("blankTabState() is what a launched and an attached browser's first tab show", async () => {
  {
    await using browser = await BrowserSession.start({ headless: true });
    assert.deepEqual(await browser.observe(), blankTabState());
  }
  await using chrome = await startRemoteChromium();
  await using attached = await BrowserSession.start({ headless: true, cdpUrl: chrome.url });
  assert.deepEqual(await attached.observe(), blankTabState());
});

Deno.test("the first model request is the same whether the browser was still starting or ready", async () => {
  const task = "Find the opening hours of the city library";
  const requests = async (
    browser: BrowserPort & { close(): Promise<void> },
    onAsked = () => {},
  ) => {
    await using model = startScriptedModel([() => {
      onAsked();
      return { tool: "done", args: { result: "no", success: false } };
    }]);
    const client = new ModelClient({ apiKey: "k", model: "scripted", baseUrl: model.baseUrl });
    try {
      await runTask({
        task,
        browser,
        model: client,
        registry: new ToolRegistry(coreTools),
        maxSteps: 3,
        signal: new AbortController().signal,
      });
    } finally {
      await browser.close();
    }
    return model.requests;
  };
  const ready = await requests(await BrowserSession.start({ headless: true }));
  // This browser starts only once the model was asked: the request cannot have waited for it.
  let asked!: () => void;
  const gate = new Promise<void>((resolve) => asked = resolve);
  const pending = await requests(
    new PendingBrowser(gate.then(() => BrowserSession.start({ headless: true })), {
      blank: true,
    }),
    () => asked(),
  );
  assert.equal(ready.length, 1);
  assert.equal(pending.length, 1);
  assert.equal(pending[0]!.user, ready[0]!.user);
  assert.equal(pending[0]!.system, ready[0]!.system);
  assert.deepEqual(pending[0]!.body, ready[0]!.body, "the whole request body");
});

Deno.test("cli: a browser that cannot start fails the command as before: one error line, exit 4, no run folder", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ba-nostart-" });
  try {
    // Says it is Chromium when asked for its version (the checks before a run pass), then dies
    // half a second later: the model has answered `done` by then, which is not acted on.
    const chrome = `${dir}/chrome`;
    await Deno.writeTextFile(
      chrome,
      `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "Chromium 130.0.1"; exit 0; fi\n` +
        `sleep 0.5\nexit 1\n`,
    );
    await Deno.chmod(chrome, 0o755);
    await using model = startScriptedModel([{ tool: "done", args: { result: "ok" } }]);
    const run = await runCli({
      args: ["Say ok"],
      env: { ...modelEnv(model.baseUrl), CHROME_PATH: chrome, XDG_DATA_HOME: `${dir}/data` },
    });
    assert.equal(run.code, EXIT.error, run.stderr);
    assert.equal(run.stdout, "");
    const lines = run.stderr.trim().split("\n");
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0]!, /^error: Cannot start ".*\/chrome": /);
    const runs = await Array.fromAsync(Deno.readDir(`${dir}/data/browser-agent/runs`))
      .catch(() => []);
    assert.deepEqual(runs, [], "no run folder is left of a run whose browser never started");
    // --out: a folder the run made is removed; one that was there keeps only what it held.
    await Deno.mkdir(`${dir}/kept`);
    await Deno.writeTextFile(`${dir}/kept/notes.txt`, "mine");
    for (const out of [`${dir}/made`, `${dir}/kept`]) {
      const failed = await runCli({
        args: ["--out", out, "Say ok"],
        env: { ...modelEnv(model.baseUrl), CHROME_PATH: chrome, XDG_DATA_HOME: `${dir}/data` },
      });
      assert.equal(failed.code, EXIT.error, failed.stderr);
    }
    await assert.rejects(Deno.stat(`${dir}/made`), Deno.errors.NotFound);
    const kept = (await Array.fromAsync(Deno.readDir(`${dir}/kept`))).map((e) => e.name);
    assert.deepEqual(kept, ["notes.txt"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli: a task without a URL asks the model while Chromium is still starting", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ba-early-" });
  try {
    // A Chromium that starts only once the test says so: after the first model request.
    const chrome = `${dir}/chrome`;
    const real = findChrome(Deno.env.get("CHROME_PATH"), {
      searchPath: Deno.env.get("PATH") ?? "",
    });
    await Deno.writeTextFile(
      chrome,
      `#!/bin/sh\nif [ "$1" = "--version" ]; then exec "${real}" "$@"; fi\n` +
        `while [ ! -e "${dir}/go" ]; do sleep 0.05; done\nexec "${real}" "$@"\n`,
    );
    await Deno.chmod(chrome, 0o755);
    await using model = startScriptedModel([
      (req) => {
        Deno.writeTextFileSync(`${dir}/go`, "");
        assert.match(req.user, /URL: about:blank/);
        return { tool: "done", args: { result: "ok", success: true } };
      },
    ]);
    // Were the first request to wait for the browser, neither would ever come.
    const run = await runCli({
      args: ["Say ok"],
      env: { ...modelEnv(model.baseUrl), CHROME_PATH: chrome, XDG_DATA_HOME: `${dir}/data` },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "ok\n");
    assert.equal(model.requests.length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
