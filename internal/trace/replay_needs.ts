/**
 * What a recording needs besides a browser: the tool modules whose tools its steps call and the
 * secrets they type. Checked before the first step, so a replay that cannot finish fails before
 * any step runs, naming the `--module` or `--secret` to pass.
 *
 * @module
 */
import type { Recording } from "./replay_types.ts";

/** What the replay has: the tools of its registry and the names of its secrets. */
export interface ReplayHas {
  tools: (name: string) => boolean;
  secrets: readonly string[];
}

const PLACEHOLDER = /\{\{\s*secret\s*:\s*([\w.-]+)\s*\}\}/gi;

/**
 * Why `recording` cannot replay with what it `has` (the first step that needs what is missing),
 * or undefined when it can.
 *
 * @example
 * ```ts
 * missingForReplay(recording, { tools: (n) => registry.get(n) !== undefined, secrets: [] });
 * // 'step 2 calls count_words, a tool of module "words": replay with --module /home/me/words.ts'
 * ```
 */
export function missingForReplay(recording: Recording, has: ReplayHas): string | undefined {
  const secrets = new Set(has.secrets.map((s) => s.toUpperCase()));
  for (const step of recording.steps) {
    const { name, args } = step.call;
    if (!has.tools(name)) {
      const owner = recording.modules?.find((m) => m.tools.includes(name));
      return owner
        ? `step ${step.step} calls ${name}, a tool of module "${owner.name}": replay with --module ${owner.module}`
        : `step ${step.step} calls ${name}, which no loaded module has: replay with the --module the run had`;
    }
    for (const m of JSON.stringify(args).matchAll(PLACEHOLDER)) {
      const secret = m[1]!.toUpperCase();
      if (!secrets.has(secret)) {
        return `step ${step.step} types the secret ${secret}, which is not set: replay with --secret ${secret}=ENV_VAR (or SECRET_${secret} in the environment)`;
      }
    }
  }
  return undefined;
}
