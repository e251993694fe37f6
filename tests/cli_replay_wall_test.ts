import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";
import { wallFrames } from "./support/wall_frames.ts";

const WALLS = new URL("./fixtures/walls/", import.meta.url);

/** The contact form as recorded: the reCAPTCHA fixture's form, without its check. */
const CONTACT =
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contact us</title>
</head><body><h1>Contact us</h1>
<form onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'Message received';">
<label>Message <textarea name="message">Hello</textarea></label>
<button type="submit">Continue</button>
</form><p id="out" role="status"></p></body></html>`;

/**
 * A site whose contact page shows, in place of the recorded one, `walls[path]`: a fixture of
 * `tests/fixtures/walls/` (a form with a reCAPTCHA, Cloudflare's interstitial), or the plain form.
 */
function startSite(walls: Record<string, string | undefined>) {
  return startFixtureServer({
    routes: [wallFrames, async (_req, url) => {
      if (!url.pathname.startsWith("/shop/contact")) return undefined;
      const fixture = walls[url.pathname];
      const body = fixture ? await Deno.readTextFile(new URL(fixture, WALLS)) : CONTACT;
      return new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
    }],
  });
}

/** Records "send the message" on the contact page: open it, click Continue, done. */
async function record(url: string, dir: string): Promise<void> {
  await using model = startScriptedModel([
    { tool: "navigate", args: { url } },
    (req) => ({ tool: "click", args: { id: idOf(req, "Continue") } }),
    { tool: "done", args: { result: "Message received", success: true } },
  ]);
  const run = await runCli({
    args: ["--out", dir, "send the message"],
    env: { OPENAI_BASE_URL: model.baseUrl },
  });
  assert.equal(run.code, 0, run.stderr);
}

Deno.test("cli --replay stops needs_user (exit 3) before a step whose page a verification check now blocks, naming it, and acts on nothing there", async () => {
  const walls: Record<string, string | undefined> = {};
  await using site = startSite(walls);
  const root = await Deno.makeTempDir({ prefix: "ba-replay-wall-" });
  try {
    await record(site.url("/shop/contact.html"), `${root}/recorded`);

    // The same form, with its Continue button, but a reCAPTCHA in it: nothing is clicked there.
    walls["/shop/contact.html"] = "recaptcha.html";
    const blocked = await runCli({
      args: ["--replay", `${root}/recorded`, "--out", `${root}/replay-1`],
    });
    assert.equal(blocked.code, 3, blocked.stderr);
    assert.match(
      blocked.stderr,
      /replay blocked: Step 2 \(click\) was not run: a human-verification check \(reCAPTCHA\) blocks http:\/\/127\.0\.0\.1:\d+\/shop\/contact\.html \(a frame from 127\.0\.0\.1:\d+\/recaptcha\/api2\/anchor\); a person must solve it \(in a --headed run with the same --session\), then replay again; see \S+replay-blocked-step-002\.png/,
    );
    assert.doesNotMatch(blocked.stderr, /step 2 ·|cannot find|the page changed/);
    assert.equal(blocked.stdout, "", "no answer: the replay did not pass");
    assert.ok((await Deno.stat(`${root}/replay-1/replay-blocked-step-002.png`)).size > 1000);

    // Cloudflare's interstitial in place of the page: given its few seconds, then named.
    walls["/shop/contact.html"] = "interstitial.html";
    const json = await runCli({
      args: ["--replay", `${root}/recorded`, "--out", `${root}/replay-2`, "--json"],
    });
    assert.equal(json.code, 3, json.stderr);
    const line = JSON.parse(json.stdout);
    assert.equal(line.reason, "needs_user");
    assert.equal(line.steps, 1);
    assert.match(
      line.message,
      /^Step 2 \(click\) was not run: a human-verification check \(Cloudflare challenge page\) blocks http:\S+\/shop\/contact\.html \(the page \(title "Just a moment\.\.\.", #challenge-/,
    );
    assert.deepEqual(Object.keys(line.verification), ["kind", "name", "url", "where"]);
    assert.equal(line.verification.kind, "cloudflare_challenge");
    assert.equal(line.verification.url, site.url("/shop/contact.html"));
    assert.match(line.screenshot, /replay-blocked-step-002\.png$/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("cli --replay batch: a recording a verification check blocks is a needs_user row, in the table, --json and JUnit, and is not retried", async () => {
  const walls: Record<string, string | undefined> = {};
  await using site = startSite(walls);
  const root = await Deno.makeTempDir({ prefix: "ba-replay-wall-batch-" });
  try {
    await record(site.url("/shop/contact.html"), `${root}/smoke/contact`);
    // A second recording of the same flow on another address, whose page stays as recorded.
    await Deno.mkdir(`${root}/smoke/plain`);
    const trace = await Deno.readTextFile(`${root}/smoke/contact/trace.jsonl`);
    await Deno.writeTextFile(
      `${root}/smoke/plain/trace.jsonl`,
      trace.replaceAll("/shop/contact.html", "/shop/contact-plain.html"),
    );
    walls["/shop/contact.html"] = "recaptcha.html";

    const table = await runCli({
      args: [
        "--replay",
        `${root}/smoke/`,
        "--retries",
        "1",
        "--junit",
        `${root}/junit.xml`,
        "--out",
        `${root}/replays`,
      ],
    });
    assert.equal(table.code, 1, table.stderr);
    assert.match(
      table.stdout,
      /^contact\s+failed \(needs_user\)\s+1\s.*Step 2 \(click\) was not run/m,
    );
    assert.match(table.stdout, /^plain\s+passed\s+2\s/m);
    assert.equal(table.stdout.trim().split("\n").at(-1), "1 passed, 1 failed");
    assert.match(
      table.stderr,
      /^contact: not retried: it waits for a person \(.*a human-verification check to solve\)/m,
    );
    assert.doesNotMatch(table.stderr, /^contact: step 2 ·/m);
    const junit = await Deno.readTextFile(`${root}/junit.xml`);
    assert.match(
      junit,
      /<failure message="needs_user: Step 2 \(click\) was not run: a human-verification check \(reCAPTCHA\) blocks [^"]+" type="needs_user">/,
    );

    const json = await runCli({
      args: ["--replay", `${root}/smoke/`, "--json", "--out", `${root}/replays-json`],
    });
    assert.equal(json.code, 1, json.stderr);
    const lines = json.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const contact = lines.find((l) => l.name === "contact");
    assert.equal(contact.reason, "needs_user");
    assert.deepEqual(contact.verification, {
      kind: "recaptcha",
      name: "reCAPTCHA",
      url: site.url("/shop/contact.html"),
      where: contact.verification.where,
    });
    assert.match(contact.verification.where, /^a frame from 127\.0\.0\.1:\d+\/recaptcha\//);
    assert.equal(lines.find((l) => l.name === "plain").reason, "replay_passed");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
