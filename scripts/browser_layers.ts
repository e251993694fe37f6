/**
 * The layers inside `internal/browser`, as `scripts/check_deps.ts` enforces them.
 *
 * Two worlds meet there. The page's world is one library, `page/`, bundled into the runtime:
 * - `page/core/`: the primitives every feature shares (DOM walking, the state store, hit testing,
 *   visibility, names and roles, shown states, options, the page's own activity);
 * - `page/<feature>/` (observe, effects, actions, settle, banners, verification, screenshots,
 *   webmcp): each uses `page/core/` and never another feature;
 * - the files right in `page/` (the isolated world's `entry.ts`, the main world's
 *   `main_world_entry.ts`, and `measure.ts`, which starts and ends an action for effects and
 *   settling together): the composition roots, which may import every layer; nothing in `page/`
 *   imports them but each other.
 *
 * The Deno side is the host folders (`actions/`, `observe/`, `tabs/`, …, `runtime/` the bridge
 * that installs the bundles) and the top-level files (the session, its core, the port), which may
 * import every folder. Host code imports `page/` code only as types; page code imports only
 * `page/` code and `shared/` (what both worlds share, and which imports only itself).
 *
 * Each folder imports only the folders its row of {@link FOLDERS} lists (beside itself and
 * `shared/`); the rows form no circle, and neither do the imports themselves: the folder graph of
 * every import, type-only ones included, is checked for circles (two folders importing each other
 * is the shortest).
 *
 * @module
 */
import { dirname, join, relative, resolve } from "node:path";

/**
 * What each folder of `internal/browser` may import beside its own files and `shared/`, and why.
 * A new edge is a decision, made in this table, and only downward: a row that closes a circle is
 * refused.
 */
export const FOLDERS: Record<string, readonly string[]> = {
  // The one action path: it settles, reports effects, answers dialogs, closes banners, watches
  // downloads and tabs, guards domains, reads text through the frame walk, starts outcomes.
  actions: [
    "banners",
    "dialogs",
    "domains",
    "downloads",
    "effects",
    "observe",
    "outcome",
    "runtime",
    "settle",
    "tabs",
  ],
  // Closes banners in the page through the runtime.
  banners: ["runtime"],
  // A prompt held open is worded by the outcome's renderer.
  dialogs: ["outcome"],
  domains: [],
  // Downloads are set up on a browser-level CDP session the session's core hands over.
  downloads: [],
  // What an action changed is read in the page through the runtime.
  effects: ["runtime"],
  // The options carry the observation's; a chrome module instance takes screenshots, keeps its
  // tabs with Tabs and loads pages as the session does.
  launch: ["observe", "screenshots", "tabs"],
  // The walk runs in the page (its types); --vision observations carry a screenshot.
  observe: ["page/observe", "runtime", "screenshots"],
  outcome: [],
  profiles: [],
  // The bridge installs the bundles and names the functions of the page's entry (their types).
  runtime: ["page", "page/actions", "page/banners", "page/effects", "page/observe", "page/settle"],
  screenshots: ["runtime"],
  settle: ["runtime"],
  // A new tab's banners are closed, its domain guarded, its first settle counts requests as
  // settling does (one definition of network idle); switching and closing are worded outcomes.
  tabs: ["banners", "domains", "outcome", "settle"],
  // Walls are looked for in the page (the wall's types) through the runtime.
  verification: ["page/verification", "runtime"],
  // A page's tool runs as an action, and may open a prompt.
  webmcp: ["actions", "dialogs", "page/webmcp", "runtime"],
  shared: [],
  // The page library: the composition roots import every layer below them.
  page: [
    "page/actions",
    "page/banners",
    "page/core",
    "page/effects",
    "page/observe",
    "page/screenshots",
    "page/settle",
    "page/verification",
    "page/webmcp",
  ],
  // The primitives import only each other.
  "page/core": [],
  // Each feature of the page library stands on the primitives alone.
  "page/actions": ["page/core"],
  "page/banners": ["page/core"],
  "page/effects": ["page/core"],
  "page/observe": ["page/core"],
  "page/screenshots": ["page/core"],
  "page/settle": ["page/core"],
  "page/verification": ["page/core"],
  "page/webmcp": ["page/core"],
};

/** The folder a path under `internal/browser` belongs to: `actions`, `page/core`, `page`, or "" (a top-level file). */
export function folderOf(path: string): string {
  const parts = path.split("/");
  if (parts.length === 1) return "";
  if (parts[0] === "page") return parts.length === 2 ? "page" : `page/${parts[1]}`;
  return parts[0]!;
}

/** Whether a path under `internal/browser` is in-page code. */
function inPage(path: string): boolean {
  return folderOf(path).split("/")[0] === "page";
}

/**
 * The problems of `internal/browser` (at `browserDir`): unknown folders, imports outside a
 * folder's row, imports across the two worlds, circles among the rows and among the imports.
 */
export function browserProblems(browserDir: string, walk: (dir: string) => Iterable<string>) {
  const problems: string[] = [];
  const where = (p: string) => `internal/browser/${p}`;
  for (const dir of folders(browserDir)) {
    if (!(dir in FOLDERS)) {
      problems.push(
        `${
          where(dir)
        }/ is not a known feature: add it to FOLDERS in scripts/browser_layers.ts with the folders it may import`,
      );
    }
  }
  const graph = new Map<string, Set<string>>();
  const example = new Map<string, string>();
  for (const file of walk(browserDir)) {
    const path = relative(browserDir, file);
    const source = Deno.readTextFileSync(file);
    const re = /^(import|export)(\s+type)?\b[^;]*?from\s*["']([^"']+)["']/gms;
    for (const m of source.matchAll(re)) {
      const spec = m[3]!;
      const typeOnly = m[2] !== undefined;
      if (!spec.startsWith(".")) {
        if (inPage(path) || path.startsWith("shared/")) {
          problems.push(
            `${where(path)} imports "${spec}": in-page and shared code import only project files`,
          );
        }
        continue;
      }
      const target = relative(browserDir, resolve(dirname(file), spec));
      if (target.startsWith("..")) continue;
      const problem = importProblem(path, target, typeOnly);
      if (problem) problems.push(`${where(path)} imports "${spec}": ${problem}`);
      const [from, to] = [folderOf(path), folderOf(target)];
      if (from === to || to === "shared") continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
      if (!example.has(`${from} ${to}`)) example.set(`${from} ${to}`, path);
    }
  }
  const rows = new Map(Object.entries(FOLDERS).map(([k, v]) => [k, new Set(v)]));
  for (const circle of circles(rows)) {
    problems.push(
      `scripts/browser_layers.ts: the rows of FOLDERS form a circle (${
        circle.join(" → ")
      }): a folder lists only folders below it`,
    );
  }
  for (const circle of circles(graph)) {
    const steps = circle.slice(0, -1).map((f, i) =>
      `${name(f)} → ${name(circle[i + 1]!)} (${example.get(`${f} ${circle[i + 1]}`)})`
    );
    problems.push(
      `internal/browser: folders import each other in a circle: ${
        steps.join(", ")
      }; move what they share below them (page/core/ or shared/)`,
    );
  }
  return problems;
}

/** What is wrong with the file at `path` importing `target` (both under internal/browser), if anything. */
function importProblem(path: string, target: string, typeOnly: boolean): string | undefined {
  const [from, to] = [folderOf(path), folderOf(target)];
  if (path.startsWith("shared/")) {
    return to === "shared" ? undefined : "shared/ code imports only shared/";
  }
  if (inPage(path) && !inPage(target) && to !== "shared") {
    return "in-page code imports only page/ code and shared/";
  }
  if (!inPage(path) && inPage(target) && !typeOnly) {
    return "the Deno side imports page/ code only as types; move what both sides need to shared/";
  }
  if (from === "" || from === to || to === "shared") return undefined;
  const allowed = FOLDERS[from];
  if (!allowed || allowed.includes(to)) return undefined; // unknown folders are reported once
  const what = to === "" ? `the top-level file ${target}` : `"${to}"`;
  return `"${from}" may import only ${
    [...allowed, "shared"].join(", ")
  }, not ${what}; move what both need below them (page/core/ or shared/), or add "${to}" to its row in FOLDERS (scripts/browser_layers.ts) if that closes no circle`;
}

function name(folder: string): string {
  return folder === "" ? "the top-level files" : folder;
}

/** The folders under `browserDir`: each host folder, `page`, and each folder of `page/`. */
function folders(browserDir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(browserDir)) {
    if (!entry.isDirectory) continue;
    out.push(entry.name);
    if (entry.name !== "page") continue;
    for (const inner of Deno.readDirSync(join(browserDir, "page"))) {
      if (inner.isDirectory) out.push(`page/${inner.name}`);
    }
  }
  return out.sort();
}

/**
 * The circles of a graph (its strongly connected components of more than one node), each as a
 * path that starts and ends at its smallest node, e.g. `["actions", "tabs", "actions"]`.
 */
export function circles(graph: Map<string, Iterable<string>>): string[][] {
  return components(graph).map((component) => pathRound(graph, new Set(component)));
}

/**
 * The strongly connected components of more than one node of a graph (Tarjan's algorithm), in
 * the order found; an edge to a node that is not a key of `graph` leads nowhere.
 */
export function components(graph: Map<string, Iterable<string>>): string[][] {
  const index = new Map<string, number>(), low = new Map<string, number>();
  const stack: string[] = [], onStack = new Set<string>(), found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next), low.set(v, next), next++, stack.push(v), onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) visit(w), low.set(v, Math.min(low.get(v)!, low.get(w)!));
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = "\0"; w !== v;) onStack.delete(w = stack.pop()!), component.push(w);
    if (component.length > 1) found.push(component);
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** A shortest way round a component from its smallest node back to it (breadth first). */
function pathRound(graph: Map<string, Iterable<string>>, component: Set<string>): string[] {
  const start = [...component].sort()[0]!;
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of [...(graph.get(v) ?? [])].sort()) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let n = v; n !== start; n = from.get(n)!) path.splice(1, 0, n);
        return [...path, start];
      }
      if (!from.has(w)) from.set(w, v), queue.push(w);
    }
  }
  return [start, start];
}
