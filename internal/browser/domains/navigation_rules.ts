/**
 * Which addresses a tab may open: web pages, on the allowed domains when some are set; local
 * files, `data:`, `javascript:`, the browser's own pages and `view-source:` only when the run
 * allows them (`--allow-files [DIR]`, `--allow-schemes`); the files this run downloaded always.
 * The rules are rows with their reason and the flag that allows them, read by {@link judge}.
 *
 * @module
 */
import { resolve } from "node:path";
import type { AllowableScheme, FenceAllowances } from "../../entity/mod.ts";

/** One kind of address: its scheme, why it is refused by default, and what allows it. */
export interface SchemeRule {
  scheme: string;
  /** Why it does not open unless allowed; "" for a scheme that always opens. */
  reason: string;
  /** The flag (and value) that allows it. */
  allowedBy: string;
}

/** The kinds of address a tab may be asked to open. Web pages always open (domains aside). */
export const SCHEME_RULES: readonly SchemeRule[] = [
  { scheme: "http:", reason: "", allowedBy: "" },
  { scheme: "https:", reason: "", allowedBy: "" },
  {
    scheme: "file:",
    reason: "it is a local file (a page could make the agent read one and send it on)",
    allowedBy: "--allow-files [DIR]",
  },
  {
    scheme: "view-source:",
    reason: "it shows the source of an address, a local file's too",
    allowedBy: "--allow-schemes view-source",
  },
  {
    scheme: "data:",
    reason: "its page is written in the address itself, by whoever wrote the address",
    allowedBy: "--allow-schemes data",
  },
  {
    scheme: "javascript:",
    reason: "it runs script in the current page",
    allowedBy: "--allow-schemes javascript",
  },
  {
    scheme: "chrome:",
    reason: "it is one of the browser's own pages (settings, history, internals)",
    allowedBy: "--allow-schemes chrome",
  },
];

/** What {@link judge} needs besides the address: the run's allowances and its downloads. */
export interface RuleContext {
  allow: FenceAllowances;
  /** `--allowed-domains`, lower case; none: every web page opens. */
  domains?: readonly string[];
  /** The paths of the files this run downloaded (they open whatever the flags). */
  downloaded: () => readonly string[];
}

/** Why an address is refused, and what the model is told to do about it. */
export interface Refusal {
  reason: string;
  fix: string;
}

/**
 * Undefined when a tab may open `url`, else why not and the fix. Pure but for local files,
 * whose real path is looked up (a link inside an allowed folder may lead out of it).
 *
 * @example
 * ```ts
 * await judge("file:///etc/hostname", { allow: {}, downloaded: () => [] });
 * // { reason: "it is a local file (…)", fix: "the user can allow it with --allow-files [DIR]" }
 * ```
 */
export async function judge(url: string, ctx: RuleContext): Promise<Refusal | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return {
      reason: "it is not an address",
      fix: "give a whole address like https://example.com/",
    };
  }
  if (parsed.href === "about:blank" || parsed.href === "about:srcdoc") return undefined;
  const scheme = parsed.protocol === "about:" ? "chrome:" : parsed.protocol;
  const row = SCHEME_RULES.find((r) => r.scheme === scheme);
  if (!row) {
    return {
      reason: `it is not a web address (${scheme} addresses do not open)`,
      fix: "give an http:// or https:// address",
    };
  }
  if (scheme === "file:") return await judgeFile(parsed, ctx);
  const refused = { reason: row.reason, fix: `the user can allow it with ${row.allowedBy}` };
  if (scheme === "view-source:") {
    if (!ctx.allow.schemes?.includes("view-source")) return refused;
    return await judge(url.slice("view-source:".length), ctx);
  }
  const name = scheme.slice(0, -1) as AllowableScheme;
  if (row.reason) return ctx.allow.schemes?.includes(name) ? undefined : refused;
  return ctx.domains ? judgeDomain(parsed, ctx.domains) : undefined;
}

/** A web page on the allowed domains, or one of their subdomains. */
function judgeDomain(url: URL, domains: readonly string[]): Refusal | undefined {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (domains.some((d) => host === d || host.endsWith(`.${d}`))) return undefined;
  return {
    reason: `it is outside the allowed domains (${domains.join(", ")})`,
    fix: "stay on them or ask the user",
  };
}

/** A local file: one this run downloaded, any with `--allow-files`, or one under its folders. */
async function judgeFile(url: URL, ctx: RuleContext): Promise<Refusal | undefined> {
  const row = SCHEME_RULES.find((r) => r.scheme === "file:")!;
  const refused = { reason: row.reason, fix: `the user can allow it with ${row.allowedBy}` };
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return refused;
  }
  const real = await realPath(path);
  const downloads = await Promise.all(ctx.downloaded().map(realPath));
  if (downloads.includes(real)) return undefined;
  const files = ctx.allow.files;
  if (files === true) return undefined;
  if (!files || files.length === 0) return refused;
  for (const dir of files) {
    const root = await realPath(dir);
    if (real === root || real.startsWith(root.endsWith("/") ? root : `${root}/`)) return undefined;
  }
  return {
    reason: `it is a local file outside ${files.map((d) => `"${d}"`).join(", ")}`,
    fix: "open files in that folder only, or ask the user",
  };
}

/** The path with its links resolved, or as written when it does not exist (yet). */
async function realPath(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch {
    return resolve(path);
  }
}
