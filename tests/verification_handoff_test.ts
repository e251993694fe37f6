import assert from "node:assert/strict";
import puppeteer from "puppeteer-core";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startRemoteChromium } from "./support/remote_chromium.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";
import { startInTerminal } from "./support/terminal.ts";
import { until } from "./support/until.ts";
import { wallFrames } from "./support/wall_frames.ts";
import { passWall } from "../internal/agent/verification_hand_off.ts";

Deno.test("a run that meets a reCAPTCHA without a terminal stops at once with needs_user (exit 3), naming it and where, and the model never sees it", async () => {
  await using site = startFixtureServer({ routes: [wallFrames] });
  await using model = startScriptedModel([]);
  const page = site.url("/walls/recaptcha.html");
  const text = await runCli({
    args: [`send a hello on ${page}`],
    env: { OPENAI_BASE_URL: model.baseUrl },
  });
  assert.equal(text.code, 3, text.stderr);
  assert.equal(
    text.stdout,
    `A human-verification check (reCAPTCHA) blocks ${page}; a person must solve it.\n`,
  );
  assert.match(
    text.stderr,
    /A human-verification check \(reCAPTCHA\) blocks http:\S+ \(a frame from 127\.0\.0\.1:\d+\/recaptcha\/api2\/anchor\)/,
  );
  assert.match(
    text.stderr,
    /needs_user · 1 step · .* · a person must solve it: run it with --headed in a terminal, or with --ui/,
  );
  assert.equal(model.requests.length, 0, "the model was never asked about the page");

  const json = await runCli({
    args: ["--json", `send a hello on ${page}`],
    env: { OPENAI_BASE_URL: model.baseUrl },
  });
  assert.equal(json.code, 3, json.stderr);
  const out = JSON.parse(json.stdout);
  assert.equal(out.reason, "needs_user");
  assert.deepEqual(out.verification, {
    kind: "recaptcha",
    name: "reCAPTCHA",
    url: page,
    where: out.verification.where,
  });
  assert.match(out.verification.where, /^a frame from 127\.0\.0\.1:\d+\/recaptcha\/api2\/anchor$/);
  assert.equal(model.requests.length, 0);
});

Deno.test("a page that only says 'verify your email' runs as any page: the model sees it and acts", async () => {
  await using site = startFixtureServer({ routes: [wallFrames] });
  await using model = startScriptedModel([
    (req) => ({ tool: "type", args: { id: idOf(req, "Verification code"), text: "123456" } }),
    (req) => ({ tool: "click", args: { id: idOf(req, /<button> Verify$/) } }),
    (req) => ({ tool: "done", args: { result: /Email verified/.exec(req.user)?.[0] ?? "?" } }),
  ]);
  const out = await runCli({
    args: [`verify my email with 123456 on ${site.url("/walls/verify_email.html")}`],
    env: { OPENAI_BASE_URL: model.baseUrl },
  });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout, "Email verified\n");
  assert.doesNotMatch(out.stderr, /human-verification/);
});

Deno.test('a sign-up page headed "Human Verification" with a plain tick box runs as any page: the model ticks it and signs up', async () => {
  await using site = startFixtureServer({ routes: [wallFrames] });
  await using model = startScriptedModel([
    (req) => ({ tool: "click", args: { id: idOf(req, /I am a human$/) } }),
    (req) => ({ tool: "click", args: { id: idOf(req, /<button[^>]*> Sign up$/) } }),
    (req) => ({ tool: "done", args: { result: /Account created/.exec(req.user)?.[0] ?? "?" } }),
  ]);
  const out = await runCli({
    args: [`sign up on ${site.url("/walls/human_verification_signup.html")}`],
    env: { OPENAI_BASE_URL: model.baseUrl },
  });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout, "Account created\n");
  assert.equal(model.requests.length, 3, "the model saw the page at step 1");
  assert.doesNotMatch(out.stderr, /human-verification/);
});

Deno.test("in a terminal with a headless browser the run stops and says how a person can solve it: --headed or --ui", async () => {
  await using site = startFixtureServer({ routes: [wallFrames] });
  await using model = startScriptedModel([]);
  const data = await Deno.makeTempDir({ prefix: "ba-walls-" });
  const term = startInTerminal({ OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: data }, [
    `create an account on ${site.url("/walls/hcaptcha_form.html")}`,
  ]);
  try {
    const screen = await term.waitFor(/a person must solve it: [^\r\n]+/);
    assert.match(
      screen,
      /A human-verification check \(hCaptcha\) blocks http:\S+hcaptcha_form\.html/,
    );
    assert.match(screen, /run it with --headed in a terminal, or with --ui/);
    assert.equal(await term.exit(), 3);
    assert.equal(model.requests.length, 0);
  } finally {
    await Deno.remove(data, { recursive: true });
  }
});

Deno.test("in a terminal with a browser a person can see, the run asks them to solve the check in its window and press Enter, looks again (still there: asks again) and goes on once it is passed", async () => {
  await using site = startFixtureServer({ routes: [wallFrames] });
  await using chrome = await startRemoteChromium();
  await using model = startScriptedModel([
    (req) => ({ tool: "click", args: { id: idOf(req, /<button> Continue/) } }),
    (req) => ({ tool: "done", args: { result: /Message received/.exec(req.user)?.[0] ?? "?" } }),
  ]);
  const data = await Deno.makeTempDir({ prefix: "ba-walls-" });
  const term = startInTerminal({ OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: data }, [
    "--cdp-url",
    chrome.url,
    "--out",
    `${data}/run`,
    `send a hello on ${site.url("/walls/recaptcha.html")}`,
  ]);
  const person = await puppeteer.connect({ browserURL: chrome.url, defaultViewport: null });
  try {
    const asked =
      /Solve it yourself \(the agent never does\) in the browser window, then press Enter here\.\r?\n> /;
    const first = await term.waitFor(asked);
    assert.match(
      first,
      /\? A human-verification check \(reCAPTCHA\) blocks http:\S+recaptcha\.html/,
    );
    assert.equal(model.requests.length, 0);

    // Enter before solving it: the check is still there, and the person is asked again.
    await term.type("\n");
    const again = await term.waitFor(asked);
    assert.match(again, /still there: A human-verification check \(reCAPTCHA\)/);

    // The person ticks the box in the window, as they would with the mouse, and presses Enter.
    const tab = await until("the agent's tab", async () => {
      for (const p of await person.pages()) if (p.url().endsWith("/walls/recaptcha.html")) return p;
    });
    const frame = await until(
      "the widget's frame",
      () => tab.frames().find((f) => f.url().includes("/recaptcha/api2/anchor")),
    );
    await frame.click("#box");
    await tab.waitForFunction(
      `document.querySelector('[name="g-recaptcha-response"]').value !== ""`,
    );
    await term.type("\n");
    const end = await term.waitFor(/goal_satisfied[^\r\n]*/);
    assert.match(end, /the check is passed: the run goes on/);
    assert.match(end, /step 2 · click \[\d+\] "Continue" · ok/);
    assert.match(end, /^Message received\r?$/m);
    assert.equal(await term.exit(), 0);
    // The trace records each hand-off: the check, how long it took, where the person answered.
    const handOffs = (await Deno.readTextFile(`${data}/run/trace.jsonl`)).trim().split("\n")
      .map((line) => JSON.parse(line)).filter((line) => line.type === "hand_off");
    assert.deepEqual(
      handOffs.map((h) => [h.step, h.check.name, h.outcome, h.by]),
      [[2, "reCAPTCHA", "still_there", "terminal"], [2, "reCAPTCHA", "passed", "terminal"]],
    );
  } finally {
    await person.disconnect();
    await Deno.remove(data, { recursive: true });
  }
});

Deno.test("Cloudflare's interstitial that passes by itself in a moment is waited for: no hand-off, and the run goes on on the site", async () => {
  await using site = startFixtureServer({ routes: [wallFrames] });
  await using model = startScriptedModel([
    (req) => ({ tool: "done", args: { result: /\$[\d.]+/.exec(req.user)?.[0] ?? "?" } }),
  ]);
  const out = await runCli({
    args: [`what does the backpack cost on ${site.url("/walls/interstitial_passes.html")}`],
    env: { OPENAI_BASE_URL: model.baseUrl },
  });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout, "$89.99\n");
  assert.equal(model.requests.length, 1);
  assert.match(model.requests[0]!.user, /Trail Shop/);
});

Deno.test("a check met on an address that holds a typed secret names the page with the secret masked, in the progress lines as in the result", async () => {
  // A sign-in form sent by GET puts the typed password in the address of the page it opens,
  // and that page is a check.
  const login = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title>
</head><body><h1>Sign in</h1><form method="get" action="/walls/recaptcha.html">
<label>Password <input type="password" name="pw"></label><button>Sign in</button></form></body></html>`;
  await using site = startFixtureServer({
    routes: [
      wallFrames,
      (_req, url) =>
        url.pathname === "/walls/login.html"
          ? new Response(login, { headers: { "content-type": "text/html" } })
          : undefined,
    ],
  });
  const secret = "Hunter2Secret";
  await using model = startScriptedModel([
    (req) => ({
      tool: "type",
      args: { id: idOf(req, "Password"), text: "{{secret:PW}}", press_enter: true },
    }),
  ]);
  const out = await runCli({
    args: ["--secret", "PW=SIGN_IN_PW", `sign in on ${site.url("/walls/login.html")}`],
    env: { OPENAI_BASE_URL: model.baseUrl, SIGN_IN_PW: secret },
  });
  assert.equal(out.code, 3, out.stderr);
  assert.match(out.stderr, /A human-verification check \(reCAPTCHA\) blocks http:\S+pw=/);
  for (const text of [out.stdout, out.stderr]) {
    assert.ok(!text.includes(secret), `the secret leaked:\n${text}`);
  }
});

Deno.test("passWall() ends as soon as the run is stopped (Ctrl+C, --max-time), even while the page does not answer the look", async () => {
  const stop = new AbortController();
  let looked = false;
  const looking = passWall({
    // A page busy in a loop of its own never answers.
    browser: { verification: () => (looked = true, new Promise(() => {})) },
    signal: stop.signal,
  });
  await until("the look started", () => looked || undefined);
  stop.abort(new DOMException("Stopped by the user", "AbortError"));
  await assert.rejects(looking, /Stopped by the user/);
});
