/**
 * Fails when a package imports what it must not: `entity` nothing; `browser`, `llm`, `config`
 * only `entity`; `tools` `browser` and `entity`; `agent` `tools`, `llm`, `entity`; `trace`
 * `agent`, `tools`, `entity`; `mcp` `tools` and `entity`; `modules` `tools`, `browser`, `entity`.
 * Tool modules in the top-level `modules/` folder import only `internal/modules/mod.ts`. Other packages are reached only through their `mod.ts`. `main.ts` and `cli/`
 * (the commands main wires) may use every package, also only through `mod.ts`; nothing under
 * `internal/` imports them.
 *
 * Inside `internal/browser`, the layers of `scripts/browser_layers.ts`: the page library
 * (`page/core/` under the page features under the composition roots) apart from the Deno side,
 * each folder importing only what its row lists, and no circle among the folders.
 *
 * It also seals the boundaries of the three libraries that must stay in one package each:
 * `puppeteer-core` is imported only in `internal/browser`, `openai` only in `internal/llm`, the
 * MCP SDK only in `internal/mcp`; and no puppeteer type appears in what `internal/browser/mod.ts`
 * exports (read from `deno doc --json`).
 *
 * And no two files import each other, directly or round a longer loop, type-only imports and
 * re-exports included: each loop is named with its files (Tarjan's strongly connected components
 * over the project's relative imports); the ones in {@link KNOWN_CYCLES} are debts with a reason.
 *
 * Run: deno run --allow-read --allow-run scripts/check_deps.ts [PROJECT_DIR]
 */
import { dirname, join, relative, resolve } from "node:path";
import { browserProblems, components } from "./browser_layers.ts";

const ALLOWED: Record<string, string[]> = {
  entity: [],
  config: ["entity"],
  browser: ["entity"],
  llm: ["entity"],
  tools: ["browser", "entity"],
  agent: ["tools", "llm", "entity"],
  trace: ["agent", "tools", "entity"],
  mcp: ["tools", "entity"],
  modules: ["tools", "browser", "entity"],
  live: ["tools", "entity"],
};

/** Libraries that belong to one package: imported anywhere else, they leak through its seams. */
const SEALED: [RegExp, string][] = [
  [/^(npm:)?puppeteer-core(@|\/|$)/, "browser"],
  [/^(npm:)?openai(@|\/|$)/, "llm"],
  [/^(npm:\/?)?@modelcontextprotocol\/sdk(@|\/|$)/, "mcp"],
];

/**
 * Import loops still to break, each as its files (sorted, joined by spaces), and why it is still
 * there. Each is a debt: a loop means neither side can be changed or tested alone.
 */
const KNOWN_CYCLES: Record<string, string> = {};

/** The project folder: this script's parent, or the folder given as the first argument (tests). */
const root = resolve(Deno.args[0] ?? new URL("..", import.meta.url).pathname);
const internal = join(root, "internal");
const problems: string[] = [];

for (const pkg of Deno.readDirSync(internal)) {
  if (!pkg.isDirectory) continue;
  const allowed = ALLOWED[pkg.name];
  if (!allowed) {
    problems.push(`internal/${pkg.name} is not a known package: add it to scripts/check_deps.ts`);
    continue;
  }
  for (const file of walk(join(internal, pkg.name))) {
    const source = Deno.readTextFileSync(file);
    for (const m of source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
      const spec = m[1]!;
      if (!spec.startsWith(".")) {
        sealed(spec, pkg.name, relative(root, file));
        continue;
      }
      const target = relative(internal, resolve(dirname(file), spec));
      const [targetPkg, ...rest] = target.split("/");
      if (targetPkg === pkg.name) continue;
      const where = relative(root, file);
      if (target.startsWith("..") || !targetPkg || !(targetPkg in ALLOWED)) {
        problems.push(`${where} imports "${spec}" outside internal/`);
      } else if (!allowed.includes(targetPkg)) {
        problems.push(
          `${where} imports package "${targetPkg}": ${pkg.name} may import only ${
            allowed.join(", ") || "nothing"
          }`,
        );
      } else if (rest.join("/") !== "mod.ts") {
        problems.push(`${where} imports "${spec}": import ${targetPkg}/mod.ts instead`);
      }
    }
  }
}

// Inside internal/browser: its folders' layers (scripts/browser_layers.ts).
problems.push(...browserProblems(join(internal, "browser"), walk));

// main.ts and cli/: any package, but only through its mod.ts.
const wiring = [join(root, "main.ts"), ...walk(join(root, "cli"))];
for (const file of wiring) {
  const source = Deno.readTextFileSync(file);
  for (const m of source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
    const spec = m[1]!;
    if (!spec.startsWith(".")) sealed(spec, undefined, relative(root, file));
    const target = relative(internal, resolve(dirname(file), spec));
    if (!spec.startsWith(".") || target.startsWith("..")) continue;
    const [targetPkg, ...rest] = target.split("/");
    if (rest.join("/") !== "mod.ts") {
      problems.push(
        `${relative(root, file)} imports "${spec}": import ${targetPkg}/mod.ts instead`,
      );
    }
  }
}

// Tool modules (modules/): only what internal/modules/mod.ts offers them, no sealed library.
const moduleDir = join(root, "modules");
const moduleFiles = (() => {
  try {
    return [...walk(moduleDir)];
  } catch {
    return [];
  }
})();
for (const file of moduleFiles) {
  const source = Deno.readTextFileSync(file);
  for (const m of source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
    const spec = m[1]!;
    if (!spec.startsWith(".")) {
      sealed(spec, undefined, relative(root, file));
      continue;
    }
    const target = relative(root, resolve(dirname(file), spec));
    if (target.startsWith("internal/") && target !== "internal/modules/mod.ts") {
      problems.push(
        `${relative(root, file)} imports "${spec}": a module imports only internal/modules/mod.ts`,
      );
    }
  }
}

// No import loops between files; a debt that was paid leaves the table.
const loops = importLoops();
const found = new Set(loops.map((loop) => loop.join(" ")));
for (const key of Object.keys(KNOWN_CYCLES)) {
  if (!found.has(key)) {
    problems.push(
      `scripts/check_deps.ts: "${key}" is no longer a loop: remove it from KNOWN_CYCLES`,
    );
  }
}
for (const loop of loops) {
  const key = loop.join(" ");
  if (key in KNOWN_CYCLES) continue;
  problems.push(
    `import loop among ${loop.length} files (${
      loop.join(", ")
    }): move what they share to a file both import`,
  );
}

// No puppeteer type in what the browser package exports.
const leaked = await puppeteerTypesExported();
for (const name of leaked) {
  problems.push(
    `internal/browser/mod.ts exports puppeteer's type "${name}": keep it inside internal/browser`,
  );
}

if (problems.length > 0) {
  for (const p of problems) console.error(p);
  Deno.exit(1);
}
console.error("package boundaries ok");

function* walk(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

/** Records a problem when `spec` is a sealed library imported outside its package. */
function sealed(spec: string, pkg: string | undefined, where: string): void {
  for (const [re, owner] of SEALED) {
    if (re.test(spec) && pkg !== owner) {
      problems.push(`${where} imports "${spec}": only internal/${owner} may use it`);
    }
  }
}

/** The names imported from puppeteer-core in internal/browser that its mod.ts exports use. */
async function puppeteerTypesExported(): Promise<string[]> {
  const names = new Set<string>();
  for (const file of walk(join(internal, "browser"))) {
    const source = Deno.readTextFileSync(file);
    const re =
      /import\s+(?:type\s+)?(?:\w+\s*,\s*)?\{([^}]*)\}\s*from\s*["'](?:npm:)?puppeteer-core/g;
    for (const m of source.matchAll(re)) {
      for (const part of m[1]!.split(",")) {
        const name = part.replace(/\btype\b/, "").split(/\s+as\s+/).pop()!.trim();
        if (name) names.add(name);
      }
    }
  }
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", join(internal, "browser", "mod.ts")],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    problems.push(
      `deno doc failed on internal/browser/mod.ts: ${new TextDecoder().decode(out.stderr)}`,
    );
    return [];
  }
  const doc = new TextDecoder().decode(out.stdout);
  const used = new Set([...doc.matchAll(/"typeName":\s*"([\w$]+)"/g)].map((m) => m[1]!));
  return [...names].filter((n) => used.has(n)).sort();
}

/**
 * The project's import loops (strongly connected components of more than one file over its
 * relative imports, type-only ones included), each as its files relative to the root, sorted.
 */
function importLoops(): string[][] {
  const files = [...walk(internal), ...walk(join(root, "cli")), join(root, "main.ts")];
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = Deno.readTextFileSync(file);
    const deps = [
      ...source.matchAll(/^(?:import|export)\b[^;]*?from\s*["'](\.[^"']+)["']/gms),
      ...source.matchAll(/import\(\s*["'](\.[^"']+)["']\s*\)/g),
    ].map((m) => resolve(dirname(file), m[1]!));
    graph.set(file, deps.filter((d) => d !== file));
  }
  // Only the project's files are nodes: an import of anything else is no edge.
  for (const [file, deps] of graph) graph.set(file, deps.filter((d) => graph.has(d)));
  return components(graph).map((loop) => loop.map((f) => relative(root, f)).sort());
}
