/** Result of one run of the command-line program. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;

/** Environment every run gets; tests add the model's variables. Nothing leaks from the outer one. */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1", CI: "true" };
  for (const name of ["PATH", "HOME", "DENO_DIR", "TMPDIR", "XDG_CACHE_HOME"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  // Run folders and sessions go to a scratch data dir, never the real home; tests that look at
  // them pass their own XDG_DATA_HOME.
  env.XDG_DATA_HOME = `${Deno.env.get("TMPDIR") ?? "/tmp"}/browser-agent-test-data`;
  return env;
}

/**
 * Runs `main.ts` as a user would, with the task on stdin when given.
 *
 * @example
 * ```ts
 * const { code, stdout } = await runCli({ args: ["--max-steps", "3"], stdin: "find it", env });
 * ```
 */
export async function runCli(options: {
  args?: string[];
  stdin?: string;
  env?: Record<string, string>;
  cwd?: string;
  /** Called with the child right after it starts (to send signals). */
  onStart?: (child: Deno.ChildProcess) => void;
}): Promise<CliResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", MAIN, ...(options.args ?? [])],
    cwd: options.cwd ?? ROOT,
    clearEnv: true,
    env: { ...baseEnv(), ...options.env },
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  options.onStart?.(child);
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}
