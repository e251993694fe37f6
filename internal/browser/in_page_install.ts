import type { Realm } from "puppeteer-core";
import { installDescribe } from "./in_page_describe.ts";
import { installPaint } from "./in_page_paint.ts";
import { installRoles } from "./in_page_roles.ts";
import type { Helpers } from "./in_page_types.ts";

/** The install functions, in the order they run (`describe` uses `text` and `roles`). */
const INSTALLERS: readonly (() => void)[] = [installRoles, installPaint, installDescribe];

let version: string | undefined;

/**
 * The version of the in-page helpers: a hash of the install functions' code, so a document that
 * holds helpers of other code (another run attached to the same browser) gets them replaced.
 *
 * @example
 * ```ts
 * helpersVersion(); // "k3x9a1"
 * ```
 */
export function helpersVersion(): string {
  if (version === undefined) {
    let h = 0x811c9dc5;
    for (const ch of INSTALLERS.map(String).join("\n")) {
      h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    }
    version = h.toString(36);
  }
  return version;
}

/**
 * Installs the walker's helpers in a frame's isolated world (each new document and frame gets a
 * fresh one). The walker returns null until they are there, and the caller installs and retries.
 */
export async function installHelpers(realm: Realm): Promise<void> {
  for (const install of INSTALLERS) await realm.evaluate(install);
  await realm.evaluate(markInstalled, helpersVersion());
}

/** Marks the helpers complete, with their version (runs in the page: self-contained). */
function markInstalled(version: string): void {
  const h = (globalThis as unknown as { __browserAgentHelpers?: Helpers }).__browserAgentHelpers;
  if (h) h.version = version;
}
