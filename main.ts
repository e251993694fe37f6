/**
 * browser-agent: states a goal in plain language, drives a real Chromium to reach it through an
 * OpenAI-compatible model, and prints what it found. Reads the command line and hands it to a
 * command in `cli/`: one run, a batch, a replay, the interactive prompt, sessions, `mcp`, or
 * `merge-reports`.
 *
 * @module
 */
// Only what `--help` and `--version` need is imported here; the commands (cli/commands.ts) and
// the error printer (cli/process_io.ts) load once the command line is read. Deno reads the
// dynamic imports too before the first line runs, unless deno.json asks for them to be loaded
// lazily (`"unstable": ["lazy-dynamic-imports"]`): their graph (browser, model client, MCP SDK,
// ~250 modules) would delay `--help` by tens of milliseconds.
import { type Config, EXIT, helpText, loadConfig, loadDotEnv } from "./internal/config/mod.ts";
import { ConfigError } from "./internal/entity/mod.ts";
import denoJson from "./deno.json" with { type: "json" };

const VERSION = denoJson.version;

const commands = () => import("./cli/commands.ts");
/** Prints `error: …` on stderr (control characters escaped) and returns `code`. */
const fail = async (error: unknown, code: number) =>
  (await import("./cli/process_io.ts")).fail(error, code);

async function main(argv: string[]): Promise<number> {
  await loadDotEnv(async (line) => (await import("./cli/process_io.ts")).log(line));
  if (argv[0] === "mcp") return await (await commands()).mcp(argv.slice(1), VERSION);
  let config: Config;
  try {
    if (argv[0] === "sessions") return await (await commands()).sessions(argv.slice(1));
    if (argv[0] === "merge-reports") return await (await commands()).mergeReports(argv.slice(1));
    config = loadConfig(argv, Deno.env.toObject());
  } catch (error) {
    return await fail(error, EXIT.usage);
  }
  if (config.help) {
    console.log(helpText(VERSION));
    return EXIT.ok;
  }
  if (config.version) {
    console.log(`browser-agent ${VERSION}`);
    return EXIT.ok;
  }
  try {
    return await (await commands()).run(config, VERSION);
  } catch (error) {
    return await fail(error, error instanceof ConfigError ? EXIT.usage : EXIT.error);
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
