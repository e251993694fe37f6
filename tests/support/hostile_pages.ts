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
