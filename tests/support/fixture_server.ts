import { extname, join, normalize } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

/** Extra routes a test adds to the static fixtures: return undefined to fall through. */
export type Route = (
  req: Request,
  url: URL,
) => Response | undefined | Promise<Response | undefined>;

/**
 * Serves `tests/fixtures/` (or `root`) on 127.0.0.1 with a free port.
 *
 * @example
 * ```ts
 * await using site = startFixtureServer();
 * console.log(site.url("/shop/"));
 * ```
 */
export function startFixtureServer(
  options: { root?: string; routes?: Route[] } = {},
): { url(path: string): string; origin: string; port: number } & AsyncDisposable {
  const root = options.root ?? new URL("../fixtures/", import.meta.url).pathname;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    for (const route of options.routes ?? []) {
      const res = await route(req, url);
      if (res) return res;
    }
    let path = normalize(decodeURIComponent(url.pathname));
    if (path.includes("..")) return new Response("Bad path", { status: 400 });
    if (path.endsWith("/")) path += "index.html";
    try {
      const body = await Deno.readFile(join(root, path));
      const type = TYPES[extname(path)] ?? "application/octet-stream";
      return new Response(body, { headers: { "content-type": type } });
    } catch {
      return new Response("Not found", { status: 404 });
    }
  });
  const port = server.addr.port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    url: (path: string) => origin + path,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}
