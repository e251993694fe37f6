import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { type McpSession, startMcp } from "./support/mcp_client.ts";

/** A fixture server that records the POSTs of `mcp/cart.html` (orders, deletions, removals). */
function shop() {
  const posts: string[] = [];
  const site = startFixtureServer({
    routes: [(req, url) => {
      if (req.method !== "POST") return undefined;
      posts.push(url.pathname);
      const said: Record<string, string> = {
        "/order": "Order #1001 placed",
        "/account/delete": "Account deleted",
        "/cart/remove": "Removed from the cart",
      };
      return new Response(said[url.pathname] ?? "Unknown", { status: 200 });
    }],
  });
  return { site, posts };
}

/** Opens the cart and lists it; returns the number of the element whose label has `label`. */
async function openCart(mcp: McpSession, url: string): Promise<(label: string) => number> {
  const opened = await mcp.call("browser_navigate", { url });
  assert.equal(opened.status, "ok", opened.error);
  const list = await mcp.call("browser_list_interactives");
  const items = list.data!.items as { id: number; label: string }[];
  return (label) => {
    const item = items.find((i) => i.label.includes(label));
    assert.ok(item, `"${label}" is listed in:\n${list.text}`);
    return item.id;
  };
}

async function pageText(mcp: McpSession): Promise<string> {
  return (await mcp.call("browser_extract")).text;
}

Deno.test("mcp holds a destructive click without confirm, says why, and acts with confirm: true", async () => {
  const { site, posts } = shop();
  await using _site = site;
  await using mcp = await startMcp();
  const id = await openCart(mcp, site.url("/mcp/cart.html"));

  const held = await mcp.call("browser_overlay_act", {
    index: id("Delete account"),
    action: "click",
  });
  assert.equal(held.status, "error");
  assert.equal(held.isError, true);
  assert.match(
    held.error!,
    /^Held for confirmation: click \[\d+\] "Delete account" \(a deletion: the button says "Delete account"\)\. Nothing was done\. Ask the user; if they agree, repeat this browser_overlay_act call with confirm: true \(or start the server with --yes\)\.$/,
  );
  assert.equal(held.data!.category, "deletion");
  const order = await mcp.call("browser_act_by_index", { id: id("Place order"), action: "click" });
  assert.match(order.error!, /^Held for confirmation: click \[\d+\] "Place order" \(a payment/);
  assert.equal(order.kind, "held");
  const enter = await mcp.call("browser_press", { key: "Enter", id: id("Place order") });
  assert.match(enter.error!, /^Held for confirmation: press Enter on \[\d+\] "Place order"/);
  const download = await mcp.call("browser_click_and_wait_download", { id: id("Delete account") });
  assert.match(download.error!, /^Held for confirmation: click \[\d+\] "Delete account"/);
  assert.deepEqual(posts, []);
  assert.doesNotMatch(await pageText(mcp), /Account deleted|Order #/);
  assert.match(mcp.stderr(), /mcp: held browser_overlay_act: click \[\d+\] "Delete account"/);

  const done = await mcp.call("browser_overlay_act", {
    index: id("Delete account"),
    action: "click",
    confirm: true,
  });
  assert.equal(done.status, "ok", done.error);
  assert.deepEqual(posts, ["/account/delete"]);
  assert.match(await pageText(mcp), /Account deleted/);
  assert.match(mcp.stderr(), /mcp: browser_overlay_act confirmed by the client/);
});

Deno.test("mcp does not hold a harmless click", async () => {
  const { site, posts } = shop();
  await using _site = site;
  await using mcp = await startMcp();
  const id = await openCart(mcp, site.url("/mcp/cart.html"));
  const clicked = await mcp.call("browser_overlay_act", {
    index: id("Show details"),
    action: "click",
  });
  assert.equal(clicked.status, "ok", clicked.error);
  assert.match(await pageText(mcp), /Details: sleeps 3, 2\.1 kg/);
  assert.deepEqual(posts, []);
  assert.doesNotMatch(mcp.stderr(), /mcp: held/);
});

Deno.test("mcp with --yes performs destructive clicks; the page's confirm() waits for browser_dialog", async () => {
  const { site, posts } = shop();
  await using _site = site;
  await using mcp = await startMcp({ args: ["--yes"] });
  const id = await openCart(mcp, site.url("/mcp/cart.html"));
  const order = await mcp.call("browser_overlay_act", {
    index: id("Place order"),
    action: "click",
  });
  assert.equal(order.status, "ok", order.error);
  assert.match(await pageText(mcp), /Order #1001 placed/);
  const removed = await mcp.call("browser_act_by_index", {
    id: id("Remove item"),
    action: "click",
  });
  assert.equal(removed.status, "ok", removed.error);
  // --yes answers no question of the page: the client does, with browser_dialog.
  assert.match(
    removed.text,
    /The page asks "Remove the Dome 3 Tent from your cart\?" \(a confirm dialog\)/,
  );
  assert.deepEqual(posts, ["/order"]);
  const accepted = await mcp.call("browser_dialog", { accept: true });
  assert.equal(accepted.status, "ok", accepted.error);
  assert.match(accepted.text, /^Accepted the confirm dialog "Remove the Dome 3 Tent/);
  assert.deepEqual(posts, ["/order", "/cart/remove"]);
});

Deno.test("mcp holds the page's confirm() for browser_dialog: without an answer it is cancelled, accept: true accepts it", async () => {
  const { site, posts } = shop();
  await using _site = site;
  await using mcp = await startMcp();
  const id = await openCart(mcp, site.url("/mcp/cart.html"));
  const first = await mcp.call("browser_overlay_act", {
    index: id("Remove item"),
    action: "click",
  });
  assert.equal(first.status, "ok", first.error);
  assert.match(first.text, /\(a confirm dialog\): press Enter to accept it/);
  const other = await mcp.call("browser_act_by_index", { id: id("Place order"), action: "click" });
  assert.notEqual(other.status, "ok", "nothing else is done while the page asks");
  const cancelled = await mcp.call("browser_dialog", {});
  assert.equal(cancelled.status, "ok", cancelled.error);
  assert.match(cancelled.text, /^Cancelled the confirm dialog/);
  assert.match(await pageText(mcp), /Kept in the cart/);
  assert.deepEqual(posts, []);

  await mcp.call("browser_overlay_act", { index: id("Remove item"), action: "click" });
  const second = await mcp.call("browser_dialog", { accept: true });
  assert.equal(second.status, "ok", second.error);
  assert.deepEqual(posts, ["/cart/remove"]);
});

Deno.test("mcp asks a client that supports elicitation: a no holds the action, a yes performs it", async () => {
  const { site, posts } = shop();
  await using _site = site;
  const questions: string[] = [];
  await using mcp = await startMcp({
    elicit: (message) => {
      questions.push(message);
      return questions.length === 1
        ? { action: "decline" }
        : { action: "accept", content: { allow: true } };
    },
  });
  const id = await openCart(mcp, site.url("/mcp/cart.html"));
  const declined = await mcp.call("browser_overlay_act", {
    index: id("Place order"),
    action: "click",
  });
  assert.equal(declined.status, "error");
  assert.match(declined.error!, /^The user declined click \[\d+\] "Place order": nothing was done/);
  assert.deepEqual(posts, []);
  const allowed = await mcp.call("browser_overlay_act", {
    index: id("Place order"),
    action: "click",
  });
  assert.equal(allowed.status, "ok", allowed.error);
  assert.deepEqual(posts, ["/order"]);
  assert.match(
    questions[0]!,
    /^Allow click \[\d+\] "Place order" \(a payment or purchase: the button says "Place order"\)\?$/,
  );
  assert.equal(questions.length, 2);
});
