/**
 * Reads `.env` in the working directory into the environment, when there is one; `warn` gets one
 * line when it cannot be read. Node's compatibility layer (`process.loadEnvFile`) loads only
 * when there is a file: `--help` and usage errors do not wait for it.
 *
 * @example
 * ```ts
 * await loadDotEnv((line) => console.error(line));
 * ```
 */
export async function loadDotEnv(warn: (line: string) => void | Promise<void>): Promise<void> {
  try {
    Deno.statSync(".env");
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    // Anything else (no permission, say) is reported by loadEnvFile below, as it always was.
  }
  try {
    const { default: process } = await import("node:process");
    process.loadEnvFile(".env");
  } catch (error) {
    // No .env in the working directory is the common case; anything else is worth a word.
    if ((error as { code?: string }).code !== "ENOENT") {
      await warn(`warning: cannot read .env: ${String(error)}`);
    }
  }
}
