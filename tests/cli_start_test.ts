import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

/** The modules `entry` loads before any of its code runs: its static imports, transitively. */
async function staticGraph(entry: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(entry, ROOT).pathname],
    cwd: ROOT.pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: InfoModule[];
    redirects: Record<string, string>;
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const visit = (specifier: string) => {
    const resolved = info.redirects[specifier] ?? specifier;
    if (seen.has(resolved)) return;
    seen.add(resolved);
    for (const dep of bySpecifier.get(resolved)?.dependencies ?? []) {
      if (dep.code && !dep.isDynamic) visit(dep.code.specifier);
    }
  };
  visit(info.roots[0]!);
  return [...seen].map((s) => s.replace(ROOT.href, ""));
}

Deno.test("main.ts loads no browser, model, MCP or command code before it reads the command line", async () => {
  const graph = await staticGraph("main.ts");
  const heavy = graph.filter((m) =>
    /^npm:|^internal\/(browser|llm\/model_client|agent|tools|trace|mcp)\/|^cli\/(?!process_io)/
      .test(m)
  );
  assert.deepEqual(heavy, [], "--help and usage errors would wait for these to load");
});

Deno.test("a run starts its browser without waiting for the model SDK or the MCP SDK to load", async () => {
  // What main.ts imports before the browser starts; openai loads in the background from
  // the model client, the MCP SDK only for modules or `mcp`.
  const before = new Set<string>();
  for (const entry of ["cli/context.ts", "cli/preflight.ts", "cli/with_modules.ts"]) {
    for (const m of await staticGraph(entry)) before.add(m);
  }
  const sdks = [...before].filter((m) => /^npm:\/(openai|@modelcontextprotocol)/.test(m));
  assert.deepEqual(sdks, []);
  assert.ok([...before].some((m) => m.startsWith("npm:/puppeteer-core")));
});
