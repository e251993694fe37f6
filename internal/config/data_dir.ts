/**
 * The directory where browser-agent keeps sessions and runs: `$XDG_DATA_HOME/browser-agent`, else
 * `~/.local/share/browser-agent` on Linux, `~/Library/Application Support/browser-agent` on macOS,
 * `%LOCALAPPDATA%\browser-agent` on Windows.
 *
 * @example
 * ```ts
 * dataDir({ XDG_DATA_HOME: "/tmp/data" }, "linux"); // "/tmp/data/browser-agent"
 * dataDir({ HOME: "/home/ada" }, "linux"); // "/home/ada/.local/share/browser-agent"
 * ```
 */
export function dataDir(
  env: Record<string, string | undefined>,
  os: typeof Deno.build.os = Deno.build.os,
): string {
  const xdg = env.XDG_DATA_HOME?.trim();
  if (xdg) return `${xdg}/browser-agent`;
  if (os === "windows") {
    const base = env.LOCALAPPDATA ?? env.APPDATA ??
      `${env.USERPROFILE ?? "C:\\Users\\Default"}\\AppData\\Local`;
    return `${base}\\browser-agent`;
  }
  const home = env.HOME?.trim() || "/tmp";
  if (os === "darwin") return `${home}/Library/Application Support/browser-agent`;
  return `${home}/.local/share/browser-agent`;
}
