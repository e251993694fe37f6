/**
 * A real browser pool engine for tests: Browserless, from npm (`@browserless.io/browserless`,
 * pinned with all it needs in `tests/fixtures/browserless/package-lock.json`, a dev dependency of
 * the test set-up, never of the product). It is installed on first use into a cache folder
 * outside the checkout (so `deno check tests/` never sees its sources), with the variables that
 * skip every browser download, and run by Node on 127.0.0.1 with the system Chromium.
 *
 * Run this file (`deno run -A tests/support/browserless.ts`) to install it ahead of the tests;
 * `scripts/test.sh` does, beside `deno task check`.
 *
 * @module
 */
import { join } from "node:path";
import { processesUsing } from "./leftovers.ts";

const FIXTURE = new URL("../fixtures/browserless/", import.meta.url).pathname;
const PACKAGE = "@browserless.io/browserless";

/** Where the engine is installed, or why it cannot be. */
export type EngineInstall = { ok: true; dir: string } | { ok: false; why: string };

/** The variables that keep npm and the engine's own set-up from downloading any browser. */
const NO_DOWNLOADS = {
  PUPPETEER_SKIP_DOWNLOAD: "1",
  PUPPETEER_SKIP_CHROMIUM_DOWNLOAD: "1",
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
};

/**
 * Installs the pinned engine (`npm ci --ignore-scripts`) unless the cache holds it; resolves to
 * its folder, or to why it cannot be had here (no Node or npm, the registry unreachable).
 */
export async function installBrowserless(): Promise<EngineInstall> {
  const lock = await Deno.readTextFile(join(FIXTURE, "package-lock.json"));
  const version = JSON.parse(lock).packages[`node_modules/${PACKAGE}`]?.version as string;
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(lock)),
  );
  const tag = [...digest.slice(0, 4)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const home = Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cache");
  const dir = join(home, "browser-agent-tests", `browserless-${version}-${tag}`);
  if (await exists(join(dir, "node_modules", PACKAGE, "build", "index.js"))) {
    return { ok: true, dir };
  }
  for (const tool of ["node", "npm"]) {
    if (!await runs(tool, ["--version"])) return { ok: false, why: `${tool} is not installed` };
  }
  // Installed beside, then renamed: a run stopped halfway leaves no half-installed engine.
  const staging = `${dir}.part-${Deno.pid}`;
  await Deno.mkdir(staging, { recursive: true });
  try {
    for (const file of ["package.json", "package-lock.json"]) {
      await Deno.copyFile(join(FIXTURE, file), join(staging, file));
    }
    const npm = await new Deno.Command("npm", {
      args: ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
      cwd: staging,
      env: NO_DOWNLOADS,
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!npm.success) {
      const said = new TextDecoder().decode(npm.stderr).trim().split("\n").slice(-3).join(" ");
      return { ok: false, why: `npm ci of ${PACKAGE}@${version} failed: ${said}` };
    }
    await Deno.rename(staging, dir).catch(async (error) => {
      // Another run installed it meanwhile: theirs is as good.
      if (!await exists(join(dir, "node_modules"))) throw error;
    });
    return { ok: true, dir };
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {/* renamed, or gone */});
  }
}

/** How a test starts the engine; the names of Browserless's own variables in brackets. */
export interface EngineOptions {
  /** The token every request must carry (`TOKEN`). */
  token: string;
  /** Sessions at once (`CONCURRENT`). */
  concurrent: number;
  /** Connections that may wait for a session (`QUEUED`). */
  queued: number;
  /** A session's longest life, in ms (`TIMEOUT`). */
  timeoutMs: number;
}

/** Browserless as a test runs it. */
export interface Browserless extends AsyncDisposable {
  port: number;
  /** `ws://127.0.0.1:PORT/?token=…` (another token, or none, when given). */
  ws(token?: string | null): string;
  /** `http://127.0.0.1:PORT/?token=…`. */
  http(token?: string | null): string;
  /** The engine's `/pressure`: sessions running and connections queued. */
  pressure(): Promise<{ running: number; queued: number; maxConcurrent: number }>;
  /** The engine's `/sessions`: what it has open. */
  sessions(): Promise<unknown[]>;
  /**
   * Kills it as a crash, or a container's restart, does (SIGKILL, and whatever it left running),
   * then starts it again on the same port after `downMs`.
   */
  restart(downMs: number): Promise<void>;
  /** Its private TMPDIR: its browsers' profiles are in there (for leftover checks). */
  tmp: string;
  /** What it printed, for a failing test's message. */
  log(): string;
}

/**
 * Starts Browserless from `install` on a free port of 127.0.0.1, with only its Chromium routes
 * (the system Chromium is the one browser here) and a TMPDIR of its own; disposing stops it and
 * removes its folders.
 */
export async function startBrowserless(dir: string, options: EngineOptions): Promise<Browserless> {
  const root = join(dir, "node_modules", PACKAGE);
  const tmp = await Deno.makeTempDir({ prefix: "ba-pool-" });
  // The engine launches playwright's Chromium path: under PLAYWRIGHT_BROWSERS_PATH that path is
  // a link to the system Chromium. Its routes folder holds only the Chromium and management
  // routes: the Chrome, Edge, Firefox and WebKit ones refuse to load without their browsers.
  const browsers = join(tmp, "browsers");
  const env = { PLAYWRIGHT_BROWSERS_PATH: browsers };
  const where = await new Deno.Command("node", {
    args: [
      "--input-type=module",
      "-e",
      "import pw from 'playwright-core'; console.log(pw.chromium.executablePath())",
    ],
    cwd: root,
    env,
    stdout: "piped",
  }).output();
  const chrome = new TextDecoder().decode(where.stdout).trim();
  if (!where.success || !chrome.startsWith(browsers)) {
    await Deno.remove(tmp, { recursive: true });
    throw new Error(`Cannot find where Browserless looks for Chromium (got "${chrome}")`);
  }
  await Deno.mkdir(join(chrome, ".."), { recursive: true });
  await Deno.symlink(Deno.env.get("CHROME_PATH") ?? "/usr/bin/chromium", chrome);
  const routes = join(tmp, "routes");
  await Deno.mkdir(routes);
  for (const kind of ["chromium", "management"]) {
    await Deno.symlink(join(root, "build", "routes", kind), join(routes, kind));
  }
  const port = freePort();
  const vars = {
    ...NO_DOWNLOADS,
    ...env,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: tmp,
    TMPDIR: tmp,
    HOST: "127.0.0.1",
    PORT: String(port),
    ROUTES: routes,
    TOKEN: options.token,
    CONCURRENT: String(options.concurrent),
    QUEUED: String(options.queued),
    TIMEOUT: String(options.timeoutMs),
    ENABLE_DEBUGGER: "false",
    DEBUG: "browserless*,-**:trace,-**:verbose",
  };
  let child: Deno.ChildProcess | undefined;
  let printed = "";
  const start = async () => {
    child = new Deno.Command("node", {
      args: [join(root, "build", "index.js")],
      // It reads files of its dependencies relative to the working folder.
      cwd: dir,
      clearEnv: true,
      env: vars,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    for (const stream of [child.stdout, child.stderr]) {
      stream.pipeThrough(new TextDecoderStream()).pipeTo(
        new WritableStream({ write: (text) => void (printed = (printed + text).slice(-20_000)) }),
      ).catch(() => {/* the engine stopped */});
    }
    // Up once it answers an authorised request (it launches no browser for /pressure).
    const end = Date.now() + 60_000;
    let exited = false;
    child.status.then(() => (exited = true));
    for (;;) {
      if (exited) throw new Error(`Browserless exited at start:\n${printed}`);
      const ok = await fetch(`http://127.0.0.1:${port}/pressure?token=${options.token}`)
        .then(async (r) => (await r.body?.cancel(), r.ok), () => false);
      if (ok) return;
      if (Date.now() > end) throw new Error(`Browserless did not start:\n${printed}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const stop = async (signal: Deno.Signal = "SIGTERM") => {
    if (!child) return;
    const running = child;
    child = undefined;
    try {
      running.kill(signal);
    } catch { /* it exited already */ }
    const killer = setTimeout(() => {
      try {
        running.kill("SIGKILL");
      } catch { /* it exited meanwhile */ }
    }, 10_000);
    await running.status;
    clearTimeout(killer);
    // As a container's stop does: what the engine left running (its browsers) goes with it.
    for (const pid of await processesUsing(tmp)) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* it exited meanwhile */ }
    }
  };
  const get = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}?token=${options.token}`);
    if (!res.ok) throw new Error(`Browserless answered ${res.status} to ${path}`);
    return await res.json();
  };
  const url = (scheme: string) => (token: string | null = options.token) =>
    `${scheme}://127.0.0.1:${port}/${token === null ? "" : `?token=${token}`}`;
  try {
    await start();
  } catch (error) {
    await stop();
    await Deno.remove(tmp, { recursive: true }).catch(() => {/* best effort */});
    throw error;
  }
  return {
    port,
    tmp,
    ws: url("ws"),
    http: url("http"),
    pressure: async () => (await get("/pressure")).pressure,
    sessions: () => get("/sessions"),
    restart: async (downMs) => {
      await stop("SIGKILL");
      await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    log: () => printed,
    async [Symbol.asyncDispose]() {
      await stop();
      await Deno.remove(tmp, { recursive: true }).catch(() => {/* best effort */});
    },
  };
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

async function runs(command: string, args: string[]): Promise<boolean> {
  try {
    return (await new Deno.Command(command, { args, stdout: "null", stderr: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  const install = await installBrowserless();
  console.error(
    install.ok
      ? `pool engine: Browserless installed in ${install.dir}`
      : `pool engine: not installed (${install.why}); its test will be skipped`,
  );
}
