/**
 * The view's URL is where the page is: a click on a link to a fragment (`href="#news"`, the page's
 * own floating menu, no element of that id) leaves the URL with its fragment in the next request,
 * as the address bar shows it.
 */
import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { runCli } from "./support/run_cli.ts";
import { idOf, startScriptedModel } from "./support/scripted_model.ts";

Deno.test("a click on a link to #news leaves the view's URL with its fragment", async () => {
  await using site = startFixtureServer();
  await using model = startScriptedModel([
    { tool: "navigate", args: { url: site.url("/truth/floating_menu.html") } },
    (req) => ({ tool: "click", args: { id: idOf(req, /News/) } }),
    { tool: "done", args: { result: "on news", success: true } },
  ]);
  const run = await runCli({ args: ["open the news"], env: { OPENAI_BASE_URL: model.baseUrl } });
  assert.equal(run.code, 0, run.stderr);
  assert.match(model.requests[1]!.user, /^URL: \S*\/truth\/floating_menu\.html$/m);
  assert.match(model.requests[2]!.user, /^URL: \S*\/truth\/floating_menu\.html#news$/m);
  assert.doesNotMatch(model.requests[2]!.user, /Nothing on the page changed/);
});
