/**
 * Hostile pages for the fences' tests: routes for `startFixtureServer` that do what an attacker's
 * page would.
 */
import type { Route } from "./fixture_server.ts";
import { transformedForms } from "./secret_forms.ts";

const HTML = { "content-type": "text/html; charset=utf-8" };

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/**
 * `/fences/login`: a sign-in form; what is typed into its password field comes back on
 * `/fences/welcome?pw=…` as its title (as typed), in its address (URL-encoded) and in its text in
 * every form of {@link transformedForms} (base64, entities, spaced out, reversed…).
 */
export function echoingLogin(): Route {
  return async (req, url) => {
    if (url.pathname === "/fences/login" && req.method === "GET") {
      return new Response(
        `<!doctype html><title>Sign in</title><form method="post" action="/fences/login">
<label>User <input name="user"></label> <label>Password <input name="pw" type="password"></label>
<button>Sign in</button></form>`,
        { headers: HTML },
      );
    }
    if (url.pathname === "/fences/login" && req.method === "POST") {
      const pw = new URLSearchParams(await req.text()).get("pw") ?? "";
      return new Response(null, {
        status: 303,
        headers: { location: `/fences/welcome?pw=${encodeURIComponent(pw)}` },
      });
    }
    if (url.pathname === "/fences/welcome") {
      const pw = url.searchParams.get("pw") ?? "";
      const lines = Object.entries(transformedForms(pw)).map(([name, f]) =>
        `<p>Your password ${escapeHtml(name)}: <span>${escapeHtml(f.text)}</span></p>`
      );
      return new Response(
        `<!doctype html><title>${escapeHtml(pw)}</title><h1>Welcome</h1>${lines.join("\n")}`,
        { headers: HTML },
      );
    }
    return undefined;
  };
}

/**
 * `/fences/tabs?away=URL`: every way a page leaves for `away` without the model asking it to —
 * a `target=_blank` link (with and without an opener), `window.open`, a pop-up window, a frame
 * that navigates the top, a redirect in the tab and one in a new tab; `/fences/redirect?to=URL`
 * answers 302 to it.
 */
export function leavingTabs(): Route {
  return (_req, url) => {
    if (url.pathname === "/fences/redirect") {
      return new Response(null, {
        status: 302,
        headers: { location: url.searchParams.get("to") ?? "/" },
      });
    }
    if (url.pathname === "/fences/frame") {
      return new Response(
        `<!doctype html><p>Inner frame</p><script>
addEventListener("message", (e) => { top.location.href = e.data; });
</script>`,
        { headers: HTML },
      );
    }
    if (url.pathname !== "/fences/tabs") return undefined;
    const away = url.searchParams.get("away") ?? "";
    const to = JSON.stringify(away).replace(/</g, "\\u003c");
    const redirect = `/fences/redirect?to=${encodeURIComponent(away)}`;
    return new Response(
      `<!doctype html><title>Leaving</title><h1>Leaving</h1>
<a href="${escapeHtml(away)}" target="_blank">Blank link</a>
<a href="${escapeHtml(away)}" target="_blank" rel="noopener">Noopener link</a>
<button onclick='window.open(${to})'>Window open</button>
<button onclick='window.open(${to}, "pop", "popup,width=400,height=300")'>Popup window</button>
<button onclick='document.querySelector("iframe").contentWindow.postMessage(${to}, "*")'>Frame top</button>
<a href="${escapeHtml(redirect)}">Redirect link</a>
<a href="${escapeHtml(redirect)}" target="_blank">Redirect in new tab</a>
<iframe src="/fences/frame" title="inner"></iframe>`,
      { headers: HTML },
    );
  };
}

/** A server on `localhost` (another domain than 127.0.0.1) that counts what reaches it. */
export function refusedServer(): { origin: string; requests: string[] } & AsyncDisposable {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    requests.push(new URL(req.url).pathname);
    return new Response("<!doctype html><title>Evil</title><h1>Evil page</h1>", { headers: HTML });
  });
  return {
    origin: `http://localhost:${server.addr.port}`,
    requests,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}
