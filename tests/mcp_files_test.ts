import assert from "node:assert/strict";
import { join } from "node:path";
import { startFixtureServer } from "./support/fixture_server.ts";
import { download } from "./support/routes.ts";
import { type McpSession, startMcp } from "./support/mcp_client.ts";

async function idOf(mcp: McpSession, label: string): Promise<number> {
  const list = await mcp.call("browser_list_interactives");
  const item = (list.data!.items as { id: number; label: string }[]).find((i) =>
    i.label.includes(label)
  );
  assert.ok(item, `"${label}" is listed in:\n${list.text}`);
  return item.id;
}

Deno.test("mcp downloads a file, uploads one, opens and switches tabs, closes a banner", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcp-files-" });
  try {
    await using site = startFixtureServer({
      routes: [download("report.csv", "a,b\n1,2\n"), download("late.csv", "late\n")],
    });
    await using mcp = await startMcp({ args: ["--downloads", join(dir, "downloads")] });
    await mcp.call("browser_navigate", { url: site.url("/mcp/files.html") });

    const got = await mcp.call("browser_click_and_wait_download", {
      id: await idOf(mcp, "Download the report"),
    });
    assert.equal(got.status, "ok", got.error);
    const paths = got.data!.paths as string[];
    assert.equal(paths.length, 1, got.text);
    assert.equal(await Deno.readTextFile(paths[0]!), "a,b\n1,2\n");

    const late = await mcp.call("browser_click_and_wait_download", {
      id: await idOf(mcp, "Export later"),
      timeout_ms: 20_000,
    });
    assert.equal(late.status, "ok", late.error);
    assert.equal(await Deno.readTextFile((late.data!.paths as string[])[0]!), "late\n");
    const none = await mcp.call("browser_download_wait", { timeout_ms: 200 });
    assert.equal(none.status, "error");
    assert.match(none.error!, /No download started within 200 ms/);

    const cv = join(dir, "cv.txt");
    await Deno.writeTextFile(cv, "hello");
    const up = await mcp.call("browser_upload", { id: await idOf(mcp, "CV"), files: [cv] });
    assert.equal(up.status, "ok", up.error);
    assert.match((await mcp.call("browser_extract")).text, /Picked: cv\.txt \(5 bytes\)/);
    const two = await mcp.call("browser_upload", { id: await idOf(mcp, "CV"), files: [cv, cv] });
    assert.match(two.error!, /exactly one local path/);

    const opened = await mcp.call("browser_open_in_new_tab", {
      id: await idOf(mcp, "Next page in a tab"),
    });
    assert.equal(opened.status, "ok", opened.error);
    const tabs = opened.data!.tabs as { index: number; title: string; active: boolean }[];
    assert.equal(tabs.length, 2);
    assert.equal(tabs.find((t) => t.active)!.title, "Next page");
    const back = await mcp.call("browser_switch_tab", { title_contains: "files" });
    assert.equal(back.status, "ok", back.error);
    assert.equal((back.data!.tabs as { active: boolean; title: string }[])[0]!.active, true);
    const listed = await mcp.call("browser_switch_tab", {});
    assert.match(listed.text, /\*0 "Files" .*; 1 "Next page"/);
    const missing = await mcp.call("browser_switch_tab", { title_contains: "nowhere" });
    assert.match(missing.error!, /No tab's title or URL contains "nowhere"/);

    // A banner that appears without a page load is closed on request, preferring "reject".
    await mcp.call("browser_act_by_index", {
      id: await idOf(mcp, "Show consent"),
      action: "click",
    });
    const closed = await mcp.call("browser_close_banners");
    assert.equal(closed.status, "ok", closed.error);
    assert.match(closed.text, /Closed a cookie banner: clicked "Reject all"/);
    assert.match((await mcp.call("browser_extract")).text, /Consent: rejected/);
    assert.equal((await mcp.call("browser_close_banners")).text, "No banner found.");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
