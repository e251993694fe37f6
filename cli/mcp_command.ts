/**
 * `browser-agent mcp [flags]`: the browser tools over stdio for one MCP client, with the same
 * browser setup as a run (session profile, downloads, banners, allowed domains).
 *
 * @module
 */
import { SessionProfiles } from "../internal/browser/mod.ts";
import { type Config, EXIT, helpText, loadConfig, outputMask } from "../internal/config/mod.ts";
import { ConfigError } from "../internal/entity/mod.ts";
import { serveMcp } from "../internal/mcp/mod.ts";
import { startBrowser } from "./context.ts";
import { withLiveView } from "./live_view.ts";
import { withModules } from "./with_modules.ts";
import { preflight } from "./preflight.ts";
import { fail, log } from "./process_io.ts";
import { withSignals, withTempRoot } from "./process_scope.ts";

/** `browser-agent mcp [flags]`: serves the browser tools to one MCP client over stdio. */
export async function mcpCommand(argv: string[], version: string): Promise<number> {
  let config: Config;
  try {
    config = loadConfig(argv, Deno.env.toObject(), { needsModel: false, command: "mcp" });
  } catch (error) {
    return fail(error, EXIT.usage);
  }
  if (config.help || config.version) {
    console.log(config.help ? helpText(version) : `browser-agent ${version}`);
    return EXIT.ok;
  }
  if (config.task) {
    return fail(
      new ConfigError(`"mcp" takes no task (got "${config.task}"): see --help`),
      EXIT.usage,
    );
  }
  try {
    await preflight(config, {
      browser: true,
      folders: [{ flag: "--downloads", dir: config.browser.downloadsDir }],
    });
  } catch (error) {
    return fail(error, error instanceof ConfigError ? EXIT.usage : EXIT.error);
  }
  const mask = outputMask(config);
  try {
    // The same browser as the agent's: --session profile, downloads, banners, allowed domains.
    const lock = config.cli.session
      ? await new SessionProfiles(config.dataDir).lock(config.cli.session)
      : undefined;
    try {
      return await withTempRoot(
        config,
        () =>
          withModules(
            config,
            (modules) =>
              withLiveView(config, modules, (live) =>
                withSignals(async (signal) => {
                  // --vision serves the tools that work from pictures; the observations
                  // themselves take none (no MCP answer carries the view's picture).
                  const { observe } = config.browser;
                  const browsing = {
                    ...config,
                    browser: { ...config.browser, observe: { ...observe, vision: false } },
                  };
                  const startMcpBrowser = async () => {
                    const browser = await startBrowser(browsing, lock?.dir, modules);
                    live?.addBrowser(browser);
                    return browser;
                  };
                  await serveMcp({
                    startBrowser: startMcpBrowser,
                    version,
                    log,
                    signal,
                    confirmAll: config.run.yes,
                    tools: modules.tools({ mcp: true }),
                    vision: observe.vision,
                    mask: (text) => mask.text(text),
                  });
                  return EXIT.ok;
                })),
          ),
      );
    } finally {
      await lock?.release();
    }
  } catch (error) {
    return fail(error, error instanceof ConfigError ? EXIT.usage : EXIT.error);
  }
}
