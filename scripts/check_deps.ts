/**
 * Fails when a package imports what it must not: `entity` nothing; `browser`, `llm`, `config`
 * only `entity`; `tools` `browser` and `entity`; `agent` `tools`, `llm`, `entity`; `mcp` `tools`
 * and `entity`. Other packages are reached only through their `mod.ts`. `main.ts` and `cli/`
 * (the commands main wires) may use every package, also only through `mod.ts`; nothing under
 * `internal/` imports them.
 *
 * Run: deno run --allow-read scripts/check_deps.ts
 */
import { dirname, join, relative, resolve } from "node:path";

const ALLOWED: Record<string, string[]> = {
  entity: [],
  config: ["entity"],
  browser: ["entity"],
  llm: ["entity"],
  tools: ["browser", "entity"],
  agent: ["tools", "llm", "entity"],
  mcp: ["tools", "entity"],
};

const root = resolve(new URL("..", import.meta.url).pathname);
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
      if (!spec.startsWith(".")) continue;
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

// main.ts and cli/: any package, but only through its mod.ts.
const wiring = [join(root, "main.ts"), ...walk(join(root, "cli"))];
for (const file of wiring) {
  const source = Deno.readTextFileSync(file);
  for (const m of source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
    const spec = m[1]!;
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
