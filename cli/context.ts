/**
 * What every command is built from: the model client, the tool registry and how browsers are
 * started, from one validated config; and the checks a run's inputs pass before anything starts.
 *
 * @module
 */
import type { RunOptions } from "../internal/agent/mod.ts";
import { BrowserSession } from "../internal/browser/mod.ts";
import { type Config, outputMask } from "../internal/config/mod.ts";
import { ModelClient } from "../internal/llm/mod.ts";
import type { LiveHub } from "../internal/live/mod.ts";
import type { ModuleHost } from "../internal/modules/mod.ts";
import { coreTools, ToolRegistry, visionTools } from "../internal/tools/mod.ts";
import type { PreflightPlan } from "./preflight.ts";
import { Speaker } from "./speak.ts";
import { log, stderr, stdout } from "./process_io.ts";
import type { CliContext } from "./run_one.ts";

/** What a command launches and writes, for the checks before it starts. */
export function runPlan(config: Config): PreflightPlan {
  const { cli } = config;
  const folders: PreflightPlan["folders"] = [
    { flag: "--downloads", dir: config.browser.downloadsDir },
  ];
  if (cli.out) folders.push({ flag: "--out", dir: cli.out, create: !cli.replay });
  else if (!cli.replay) {
    folders.push({ flag: "the data folder", dir: `${config.dataDir}/runs`, create: true });
  }
  // --heal writes into the recordings: their folders must take a new file (the new trace).
  if (cli.heal) { for (const dir of cli.replay ?? []) folders.push({ flag: "--heal", dir }); }
  return {
    browser: true,
    folders,
    ...(cli.junit ? { files: [{ flag: "--junit", path: cli.junit }] } : {}),
  };
}

/** Options of every agent run that come from flags (budgets, safety, secrets). */
function runFlags(config: Config): CliContext["runFlags"] {
  return {
    maxSteps: config.maxSteps,
    maxMs: config.run.maxMs,
    maxRequestTokens: config.run.maxRequestTokens,
    ...(config.run.maxTokens ? { maxTokens: config.run.maxTokens } : {}),
    secrets: config.run.secrets,
    confirmAll: config.run.yes,
    vision: config.browser.observe.vision,
    ...(config.run.startUrl ? { startUrl: config.run.startUrl } : {}),
  } satisfies Partial<RunOptions>;
}

/**
 * How to start a browser from flags, and what to set up on each one; `modules` see it as the
 * current browser.
 */
export async function startBrowser(
  config: Config,
  profileDir?: string,
  modules?: ModuleHost,
  onLaunched?: () => void,
): Promise<BrowserSession> {
  const browser = await BrowserSession.start({
    ...config.browser,
    ...(profileDir ? { profileDir } : {}),
    log: (line) => log(line),
    ...(onLaunched ? { onLaunched } : {}),
  });
  try {
    await prepareBrowser(config, browser, modules);
  } catch (error) {
    await browser.close();
    throw error;
  }
  return browser;
}

/** Per-page setup from flags; runs on every browser and every batch context. */
async function prepareBrowser(
  config: Config,
  browser: BrowserSession,
  modules?: ModuleHost,
): Promise<void> {
  if (config.run.allowedDomains) await browser.allowDomains(config.run.allowedDomains);
  // A page may echo a secret in its text, where hiding fields does not reach; in its encoded
  // forms too (the text mask's), as the text outputs mask them.
  browser.hideInScreenshots(Object.keys(config.run.secrets).length ? outputMask(config).forms : []);
  modules?.attach(browser);
}

/**
 * The context of every command: config, flags for runs, model, tools (the core's and the
 * loaded modules'), browsers, output. The model client's SDK starts loading at once, unless
 * `preloadModel` is false (then on `ctx.preloadModel()` or the first request).
 */
export function context(
  config: Config,
  version: string,
  modules?: ModuleHost,
  live?: LiveHub,
  options: { preloadModel?: boolean } = {},
): CliContext {
  const model = new ModelClient({
    apiKey: config.model.apiKey,
    model: config.model.name,
    ...(config.model.baseUrl ? { baseUrl: config.model.baseUrl } : {}),
    preload: options.preloadModel ?? true,
    timeoutMs: config.run.modelTimeoutMs,
    onRetry: (r) =>
      log(
        `model server ${
          r.notCompletion
            ? `sent something that is not a chat completion (${r.notCompletion})`
            : r.status
            ? `answered ${r.status}`
            : "unreachable"
        }: retry ${r.attempt} of ${r.maxRetries}${
          r.retryAfterMs !== undefined ? ` after ${r.retryAfterMs / 1000} s (Retry-After)` : ""
        }`,
      ),
  });
  const mask = outputMask(config);
  const speaker = config.cli.speak !== undefined
    ? Speaker.create(config.cli.speak, log)
    : undefined;
  return {
    config,
    version,
    runFlags: runFlags(config),
    startBrowser: (profileDir, onLaunched) => startBrowser(config, profileDir, modules, onLaunched),
    prepareBrowser: (browser) => prepareBrowser(config, browser, modules),
    model,
    preloadModel: () => model.preload(),
    registry: new ToolRegistry([
      ...coreTools,
      // Only a model that sees pictures gets the tools that need them.
      ...config.browser.observe.vision ? visionTools : [],
      ...modules?.tools({ mcp: false }) ?? [],
    ]),
    modules: (modules?.modules ?? []).map(({ name, spec, tools }) => ({
      name,
      module: spec,
      tools,
    })),
    ...(live ? { live } : {}),
    ...(speaker ? { speaker } : {}),
    mask: (text) => mask.text(text),
    // Whatever a command prints passes the mask once more (idempotent): nothing printed holds a
    // secret or a --cdp-url token, however the line was made.
    stdout: (text) => stdout(mask.text(text)),
    stderr: (text) => stderr(mask.text(text)),
  };
}
