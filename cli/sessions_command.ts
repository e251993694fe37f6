/**
 * `browser-agent sessions` lists the persistent sessions; `--session NAME --forget` deletes one.
 *
 * @module
 */
import { type SessionInfo, SessionProfiles } from "../internal/browser/mod.ts";
import { EXIT } from "../internal/config/mod.ts";
import { ConfigError } from "../internal/entity/mod.ts";

/** `browser-agent sessions [--json]`: prints the sessions, most recently used first. */
export async function sessionsCommand(
  argv: string[],
  dataDir: string,
  stdout: (text: string) => void,
): Promise<number> {
  const unknown = argv.find((a) => a !== "--json");
  if (unknown !== undefined) {
    throw new ConfigError(`"sessions" takes only --json (got "${unknown}"): see --help`);
  }
  const profiles = new SessionProfiles(dataDir);
  const list = await profiles.list();
  if (argv.includes("--json")) {
    for (const s of list) {
      stdout(
        JSON.stringify({
          name: s.name,
          bytes: s.bytes,
          last_used: s.lastUsed?.toISOString() ?? null,
          in_use: s.inUse,
          dir: s.dir,
        }) + "\n",
      );
    }
    return EXIT.ok;
  }
  stdout(formatSessions(list, profiles.root) + "\n");
  return EXIT.ok;
}

/** `--session NAME --forget`: deletes the session's profile. */
export async function forgetCommand(
  dataDir: string,
  name: string,
  stderr: (text: string) => void,
): Promise<number> {
  const profiles = new SessionProfiles(dataDir);
  const info = (await profiles.list()).find((s) => s.name === name);
  await profiles.forget(name);
  stderr(`forgot session "${name}"${info ? ` (${size(info.bytes)})` : ""}\n`);
  return EXIT.ok;
}

/** A table of sessions: name, size, last use, in use. */
export function formatSessions(list: readonly SessionInfo[], root: string): string {
  if (list.length === 0) {
    return `No sessions yet in ${root}: start one with --session NAME`;
  }
  const rows = [
    ["session", "size", "last used", ""],
    ...list.map((s) => [
      s.name,
      size(s.bytes),
      s.lastUsed ? s.lastUsed.toISOString().slice(0, 16).replace("T", " ") : "never",
      s.inUse ? "in use" : "",
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join("  ").trimEnd())
    .join("\n");
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
