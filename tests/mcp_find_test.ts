import assert from "node:assert/strict";
import { startFixtureServer } from "./support/fixture_server.ts";
import { startMcp } from "./support/mcp_client.ts";

/** A long page with a button in a shadow root and, far below, a frame from `frameHost`. */
function findPage(frameHost: string, port: number): string {
  return `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Boutique</title></head>
<body>
  <h1>Boutique</h1>
  <div style="height: 2000px">Produits</div>
  <shop-cart></shop-cart>
  <p id="cart">Panier : vide</p>
  <iframe src="http://${frameHost}:${port}/mcp/frame.html" width="400" height="120"></iframe>
  <script>
    customElements.define("shop-cart", class extends HTMLElement {
      connectedCallback() {
        const root = this.attachShadow({ mode: "open" });
        root.innerHTML = '<button aria-label="Ajouter au panier">+</button>';
        root.querySelector("button").onclick = () => {
          document.getElementById("cart").textContent = "Panier : 1 article";
        };
      }
    });
  </script>
</body></html>`;
}

function site() {
  return startFixtureServer({
    routes: [
      (_req, url) =>
        url.pathname === "/mcp/find.html"
          ? new Response(findPage(url.searchParams.get("frame") ?? "127.0.0.1", Number(url.port)), {
            headers: { "content-type": "text/html; charset=utf-8" },
          })
          : undefined,
    ],
  });
}

Deno.test("mcp finds a button in a shadow root off screen, then acts on it by number", async () => {
  await using server = site();
  await using mcp = await startMcp();
  await mcp.call("browser_navigate", { url: server.url("/mcp/find.html") });

  // Case, spacing and a partial phrase do not matter.
  const cart = await mcp.call("browser_find", { text: "  ajouter AU  ", role: "button" });
  assert.equal(cart.status, "ok", cart.error);
  const [cartId] = cart.data!.ids as number[];
  assert.ok(cartId, cart.text);
  assert.match(cart.text, /Ajouter au panier/);
  const none = await mcp.call("browser_find", { text: "nowhere to be found" });
  assert.equal(none.status, "error");
  assert.match(none.error!, /No matches for "nowhere to be found"/);

  // A found element is a landmark: scroll to it, list, act by its number.
  await mcp.call("browser_scroll", { element_id: cartId });
  const list = await mcp.call("browser_list_interactives");
  assert.ok((list.data!.items as { id: number }[]).some((i) => i.id === cartId), list.text);
  const added = await mcp.call("browser_overlay_act", { index: cartId, action: "click" });
  assert.equal(added.status, "ok", added.error);
  assert.match((await mcp.call("browser_extract")).text, /Panier : 1 article/);

  const shown = await mcp.call("browser_overlay_show");
  assert.equal(shown.status, "ok", shown.error);
  assert.ok((shown.data!.count as number) >= 1, shown.text);
  assert.equal((await mcp.call("browser_overlay_hide")).status, "ok");
});

Deno.test("mcp finds a field by its placeholder in a cross-origin frame and types into it", async () => {
  await using server = site();
  await using mcp = await startMcp();
  await mcp.call("browser_navigate", { url: server.url("/mcp/find.html?frame=localhost") });

  const phone = await mcp.call("browser_find", { text: "номер телефона" });
  assert.equal(phone.status, "ok", phone.error);
  const [phoneId] = phone.data!.ids as number[];
  assert.ok(phoneId, phone.text);
  const typed = await mcp.call("browser_act_by_index", {
    id: phoneId,
    action: "type",
    text: "+48 600",
  });
  assert.equal(typed.status, "ok", typed.error);
  await mcp.call("browser_scroll", { element_id: phoneId });
  assert.match((await mcp.call("browser_extract")).text, /Телефон: \+48 600/);
});
