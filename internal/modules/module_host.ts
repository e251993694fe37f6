import { basename, dirname, extname, isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { BrowserPort, Tool } from "../tools/mod.ts";
import type { AgentModule, ModuleBrowser } from "./module_api.ts";
import { moduleTools } from "./module_tools.ts";

/** A module to load: a bare name (`totp`) or a path, and the folder a relative path is from. */
export interface ModuleSpec {
  spec: string;
  /** The folder of the config file that named it (or the working directory for `--module`). */
  base: string;
}

/** What {@link ModuleHost.load} needs. */
export interface ModuleHostOptions {
  modules: readonly ModuleSpec[];
  /** `moduleSettings` of the config file, by module name. */
  settings?: Record<string, Record<string, unknown>>;
  /** Where bare names are looked up: `NAME.ts` or `NAME/mod.ts`, settings in `NAME.json`. */
  modulesDir: string;
  /** Each module's data folder is `DIR/NAME`. */
  dataDir: string;
  /** Tool names of the core (the agent's and the MCP server's): a module may not take them. */
  reserved: readonly string[];
  /** One line to stderr. */
  log(line: string): void;
}

interface Loaded {
  module: AgentModule;
  /** How to name it again: its bare name, or its file's absolute path. */
  spec: string;
  agentTools: Tool[];
  mcpTools: Tool[];
}

const INIT_MS = 30_000;
const SHUTDOWN_MS = 10_000;
const BARE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/**
 * The enabled modules: loaded, initialised, their tools checked against the core's and each
 * other's; a module that cannot be loaded is skipped with one line and the others load. Disposing
 * it calls every initialised module's `shutdown()` once.
 *
 * @example
 * ```ts
 * await using host = await ModuleHost.load({ modules: [{ spec: "totp", base: "." }], modulesDir, dataDir, reserved: [], log: console.error });
 * const registry = new ToolRegistry([...coreTools, ...host.tools({ mcp: false })]);
 * ```
 */
export class ModuleHost implements AsyncDisposable {
  readonly #loaded: Loaded[] = [];
  /** Initialised (or whose init was started): each gets `shutdown()` once. */
  readonly #started: AgentModule[] = [];
  readonly #stopping = new AbortController();
  readonly #browsers: BrowserPort[] = [];
  readonly #log: (line: string) => void;
  #shutdown: Promise<void> | undefined;

  private constructor(log: (line: string) => void) {
    this.#log = log;
  }

  /** Loads and initialises `options.modules` in order. */
  static async load(options: ModuleHostOptions): Promise<ModuleHost> {
    const host = new ModuleHost(options.log);
    const taken = new Set(options.reserved);
    for (const spec of options.modules) {
      try {
        await host.#loadOne(spec, options, taken);
      } catch (error) {
        const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
        options.log(`module "${spec.spec}" is skipped: ${why}`);
      }
    }
    return host;
  }

  /** The loaded modules: name, how to name it to `--module`, and its tools. */
  get modules(): { name: string; spec: string; tools: string[]; panel: boolean }[] {
    return this.#loaded.map(({ module, spec, agentTools }) => ({
      name: module.name,
      spec,
      tools: agentTools.map((t) => t.name),
      panel: typeof module.getWebComponent === "function",
    }));
  }

  /** The panels of the modules that offer one (`getWebComponent`), by module name. */
  panels(): Map<string, ReturnType<NonNullable<AgentModule["getWebComponent"]>>> {
    const panels = new Map();
    for (const { module } of this.#loaded) {
      if (typeof module.getWebComponent !== "function") continue;
      try {
        panels.set(module.name, module.getWebComponent());
      } catch (error) {
        this.#log(`module ${module.name}: getWebComponent() failed: ${messageOf(error)}`);
      }
    }
    return panels;
  }

  /** Every loaded module's tools, for the agent (`mcp: false`) or the MCP server. */
  tools(options: { mcp: boolean }): Tool[] {
    return this.#loaded.flatMap((l) => options.mcp ? l.mcpTools : l.agentTools);
  }

  /**
   * Makes `browser` the current one modules see (`runtime.browser.current`): the last one
   * attached that is still connected.
   */
  attach(browser: BrowserPort): void {
    const open = this.#browsers.filter((b) => b.connected && b !== browser);
    this.#browsers.splice(0, this.#browsers.length, ...open, browser);
  }

  /** Calls `shutdown()` of every started module once (later calls wait for the first). */
  shutdown(): Promise<void> {
    return this.#shutdown ??= this.#stopAll();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.shutdown();
  }

  async #stopAll(): Promise<void> {
    this.#stopping.abort(new DOMException("The program is stopping", "AbortError"));
    for (const module of this.#started.reverse()) {
      try {
        await bounded(module.shutdown(), SHUTDOWN_MS, "shutdown()");
      } catch (error) {
        this.#log(`module ${module.name}: shutdown failed: ${messageOf(error)}`);
      }
    }
  }

  async #loadOne(spec: ModuleSpec, options: ModuleHostOptions, taken: Set<string>): Promise<void> {
    const { file, settingsFile } = locateModule(spec, options.modulesDir);
    const namespace = await import(pathToFileURL(file).href) as Record<string, unknown>;
    const module = shapeOf(namespace);
    if (this.#loaded.some((l) => l.module.name === module.name)) {
      throw new Error(`a module named "${module.name}" is loaded already: rename one`);
    }
    const settings = {
      ...await readSettings(settingsFile),
      ...options.settings?.[module.name],
    };
    const dataDir = join(options.dataDir, module.name);
    await Deno.mkdir(dataDir, { recursive: true });
    const current = this.#browsers;
    const browser: ModuleBrowser = {
      get current() {
        return current.findLast((b) => b.connected);
      },
    };
    this.#started.push(module);
    try {
      await bounded(
        module.init({
          settings,
          log: (message) => options.log(`module ${module.name}: ${message}`),
          dataDir,
          signal: this.#stopping.signal,
          browser,
        }),
        INIT_MS,
        "init()",
      );
      const agentTools = moduleTools(module, { mcp: false });
      const mcpTools = moduleTools(module, { mcp: true });
      const names = agentTools.map((t) => t.name);
      const clash = names.find((n, i) => taken.has(n) || names.indexOf(n) !== i);
      if (clash) {
        throw new Error(
          `its tool "${clash}" has the name of ${
            options.reserved.includes(clash) ? "a core tool" : "another tool"
          }: rename it`,
        );
      }
      for (const name of names) taken.add(name);
      const named = BARE.test(spec.spec) ? spec.spec : file;
      this.#loaded.push({ module, spec: named, agentTools, mcpTools });
      options.log(
        `module ${module.name}: ready (${names.length} tool${names.length === 1 ? "" : "s"}${
          names.length ? `: ${names.join(", ")}` : ""
        })`,
      );
    } catch (error) {
      this.#started.splice(this.#started.indexOf(module), 1);
      await bounded(module.shutdown(), SHUTDOWN_MS, "shutdown()").catch(() => {/* skipped */});
      throw error;
    }
  }
}

/**
 * The module file and its settings file; throws a TypeError that says what is missing and the
 * fix (`there is no file "/home/me/nosuch.ts"; fix the path`).
 */
export function locateModule(
  spec: ModuleSpec,
  modulesDir: string,
): { file: string; settingsFile: string } {
  const isPath = spec.spec.startsWith("./") || spec.spec.startsWith("../") ||
    isAbsolute(spec.spec);
  if (isPath) {
    const file = resolve(spec.base, spec.spec);
    if (!isFile(file)) throw new TypeError(`there is no file "${file}"; fix the path`);
    const settingsFile = join(dirname(file), `${basename(file, extname(file))}.json`);
    return { file, settingsFile };
  }
  if (!BARE.test(spec.spec)) {
    throw new TypeError(
      'it is not a module name or path; name a module in modules/ ("totp") or give a path ("./my_module.ts")',
    );
  }
  const settingsFile = join(modulesDir, `${spec.spec}.json`);
  for (const file of [join(modulesDir, `${spec.spec}.ts`), join(modulesDir, spec.spec, "mod.ts")]) {
    if (isFile(file)) return { file, settingsFile };
  }
  throw new TypeError(
    `there is no modules/${spec.spec}.ts or modules/${spec.spec}/mod.ts; name a module there, or give a path ("./my_module.ts")`,
  );
}

/** The module object of a loaded file (its default export, or its exports), checked. */
function shapeOf(namespace: Record<string, unknown>): AgentModule {
  const candidate = (namespace.default ?? namespace) as Record<string, unknown>;
  if (typeof candidate !== "object" || candidate === null) {
    throw new Error("it exports no module object");
  }
  if (typeof candidate.name !== "string" || !candidate.name.trim()) {
    throw new Error('it has no "name"');
  }
  // executeToolCall is needed only to run tools given as JSON: checked with them.
  for (const fn of ["init", "getToolDefinitions", "shutdown"]) {
    if (typeof candidate[fn] !== "function") {
      throw new Error(`it has no ${fn}() function: see README "Modules"`);
    }
  }
  return candidate as unknown as AgentModule;
}

async function readSettings(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    throw new Error(`cannot read its settings "${file}": ${messageOf(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`its settings "${file}" are not JSON (${messageOf(error)}): fix the file`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`its settings "${file}" are not a JSON object: write { "key": value }`);
  }
  return value as Record<string, unknown>;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

async function bounded<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}
