/**
 * browser-agent with `--ui` as a user starts it, for live view tests: `main.ts` in a child with
 * the base environment, the scripted model's address and a data folder of its own, no terminal
 * (stdin closed), stderr read as it comes. Disposing ends it and removes its folder.
 *
 * @example
 * ```ts
 * await using cli = startLiveCli({ args: [`find it on ${url}`], modelUrl: model.baseUrl });
 * const view = await cli.url(); // http://127.0.0.1:PORT/?token=…
 * const { code, stdout } = await cli.exited();
 * ```
 */
import { baseEnv } from "./run_cli.ts";
import { until } from "./until.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;

/** A running `browser-agent --ui`. */
export interface LiveCli extends AsyncDisposable {
  /** Its folder: the run folder is `run` in it (`--out`), its data folder `data`. */
  dir: string;
  /** The live view's address, once stderr says it. */
  url(): Promise<URL>;
  /** What it printed on stderr so far. */
  stderr(): string;
  /** Its exit code, stdout and all of stderr, once it exited. */
  exited(): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** Starts `main.ts --ui --out DIR/run ...args` against the model at `modelUrl`. */
export function startLiveCli(
  options: { args: string[]; modelUrl: string; env?: Record<string, string> },
): LiveCli {
  const dir = Deno.makeTempDirSync({ prefix: "ba-live-cli-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", MAIN, "--ui", "--out", `${dir}/run`, ...options.args],
    cwd: ROOT,
    clearEnv: true,
    env: {
      ...baseEnv(),
      OPENAI_BASE_URL: options.modelUrl,
      XDG_DATA_HOME: `${dir}/data`,
      ...options.env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const reading = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (stderr += chunk) }),
  );
  const stdout = new Response(child.stdout).text();
  return {
    dir,
    url: async () =>
      new URL(await until("the live view URL", () => /live view: (\S+)/.exec(stderr)?.[1])),
    stderr: () => stderr,
    exited: async () => {
      const { code } = await child.status;
      await reading;
      return { code, stdout: await stdout, stderr };
    },
    async [Symbol.asyncDispose]() {
      try {
        child.kill();
      } catch { /* exited */ }
      await child.status;
      await reading.catch(() => {/* cut off by the kill */});
      await stdout.catch(() => {/* cut off by the kill */});
      await Deno.remove(dir, { recursive: true });
    },
  };
}
