import type { VerificationWall } from "../../entity/mod.ts";

/**
 * The one sentence that names a human-verification check and the page it blocks, without a full
 * stop; each front-end adds what its reader is to do (the CLI: a person must solve it; the MCP
 * client: ask the user).
 *
 * @example
 * ```ts
 * renderWall({ kind: "turnstile", name: "Cloudflare Turnstile", url: "https://a.com/login", where: "div.cf-turnstile", reason: "…" });
 * // 'A human-verification check (Cloudflare Turnstile) blocks https://a.com/login'
 * ```
 */
export function renderWall(wall: VerificationWall): string {
  return `A human-verification check (${wall.name}) blocks ${wall.url}`;
}
