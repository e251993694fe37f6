import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startMcp } from "./support/mcp_client.ts";
import { wallFrames } from "./support/wall_frames.ts";

Deno.test("mcp reports a human-verification check as blocked_by_verification: a navigation that lands on one says so, an action on the page is not run, looking still works, and a 'Verify' page is ordinary", async () => {
  await using site = startFixtureServer({ routes: [wallFrames] });
  await using mcp = await startMcp();
  const page = site.url("/walls/recaptcha.html");

  const opened = await mcp.call("browser_navigate", { url: page });
  assert.equal(opened.status, "error");
  assert.equal(opened.kind, "blocked_by_verification");
  assert.ok(opened.isError);
  assert.match(opened.text, /^Error: Opened http:\S+recaptcha\.html/);
  assert.ok(opened.text.includes(`A human-verification check (reCAPTCHA) blocks ${page}`));
  assert.match(opened.text, /ask the user to solve it in the browser window/);
  assert.deepEqual(opened.data?.verification, {
    kind: "recaptcha",
    name: "reCAPTCHA",
    url: page,
    where: (opened.data?.verification as { where: string }).where,
  });

  // Looking works; acting on the check (its checkbox, listed from its frame) is not done.
  const list = await mcp.call("browser_list_interactives");
  assert.equal(list.status, "ok", list.error);
  const items = list.data!.items as { id: number; label: string }[];
  const box = items.find((i) => i.label.includes("not a robot"));
  assert.ok(box, list.text);
  const clicked = await mcp.call("browser_act_by_index", { id: box.id, action: "click" });
  assert.equal(clicked.kind, "blocked_by_verification");
  assert.match(
    clicked.text,
    /^Error: Nothing was done \(browser_act_by_index\)\. A human-verification/,
  );
  const pressed = await mcp.call("browser_press", { key: "Space" });
  assert.equal(pressed.kind, "blocked_by_verification");
  const again = await mcp.call("browser_list_interactives");
  assert.match(again.text, /☐ I'm not a robot/, "the checkbox was not ticked");
  assert.match(mcp.stderr(), /mcp: browser_act_by_index · error: Nothing was done/);

  // Leaving the page is allowed; a page that only asks to verify an email is an ordinary one.
  const email = await mcp.call("browser_navigate", { url: site.url("/walls/verify_email.html") });
  assert.equal(email.status, "ok", email.error);
  const listed = await mcp.call("browser_list_interactives");
  const verify = (listed.data!.items as { id: number; label: string }[]).find((i) =>
    i.label === "Verify"
  );
  assert.ok(verify, listed.text);
  const verified = await mcp.call("browser_act_by_index", { id: verify.id, action: "click" });
  assert.equal(verified.status, "ok", verified.error);
  assert.match(await mcp.call("browser_extract").then((a) => a.text), /Email verified/);
});
