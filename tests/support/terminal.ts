import { baseEnv } from "./run_cli.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/**
 * main.ts in a pseudo-terminal (util-linux `script`), typed into line by line.
 *
 * @example
 * ```ts
 * const term = startInTerminal({ OPENAI_BASE_URL: url }, ["find it"]);
 * await term.waitFor(/\? Which size/);
 * ```
 */
export function startInTerminal(env: Record<string, string>, args: string[] = []) {
  // exec: Ctrl+C must reach only the agent, not a shell waiting for it. Arguments are quoted
  // for the shell that `script` starts.
  const quoted = args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const command = `exec ${Deno.execPath()} run --allow-all --quiet ${MAIN} ${quoted}`;
  const child = new Deno.Command("script", {
    args: ["-qfec", command, "/dev/null"],
    clearEnv: true,
    env: { ...baseEnv(), ...env, TERM: "dumb" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  let screen = "";
  let seen = 0;
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) screen += decoder.decode(chunk, { stream: true });
  })();
  return {
    /** Everything shown so far. */
    get screen() {
      return screen;
    },
    async type(text: string) {
      await writer.write(new TextEncoder().encode(text));
    },
    /** Waits until the screen shows `pattern` after what earlier waits matched. */
    async waitFor(pattern: RegExp): Promise<string> {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const rest = screen.slice(seen);
        const m = pattern.exec(rest);
        if (m) {
          seen += m.index + m[0].length;
          return rest.slice(0, m.index + m[0].length);
        }
        if (Date.now() > deadline) {
          throw new Error(`Timed out waiting for ${pattern}; the screen shows:\n${screen}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async exit(): Promise<number> {
      await writer.close().catch(() => {});
      const { code } = await child.status;
      await reading;
      await child.stderr.cancel();
      return code;
    },
  };
}
