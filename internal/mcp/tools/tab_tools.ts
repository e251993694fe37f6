import { z } from "zod";
import type { DownloadRecord, ToolResult } from "../../entity/mod.ts";
import {
  actionResult,
  actOptions,
  click,
  CONFIRM,
  defineTool,
  renderDownload,
  switchTab,
  type Tool,
  upload,
  withLaterDownloads,
} from "../../tools/mod.ts";

/**
 * The MCP tools for tabs, downloads, uploads and banners: adapters over the same browser
 * session and agent tools.
 *
 * @module
 */

const ID = z.int().describe("The element's [id]");
const TIMEOUT = z.int().min(100).max(300_000)
  .describe("Longest wait for a download to start, ms (default 10000)").optional();
const DEFAULT_TIMEOUT_MS = 10_000;

/** browser_open_in_new_tab(id): opens a link in a new tab, which becomes current. */
export const browserOpenInNewTab = defineTool({
  name: "browser_open_in_new_tab",
  description: "Open the link [id] in a new tab and switch to it.",
  facts: { effect: "leaves", element: true },
  args: z.object({ id: ID, confirm: CONFIRM }),
  // A link that says "Delete account" is held in a new tab as in the current one.
  actsAs: (args) => ({ name: "click", args: { id: args.id } }),
  async handler(args, ctx) {
    const result = actionResult(await ctx.browser.openInNewTab(args.id, actOptions(ctx)));
    return { ...result, data: { tabs: await ctx.browser.tabs() } };
  },
});

/** browser_switch_tab(index?, title_contains?): switches tabs, or lists them. */
export const browserSwitchTab = defineTool({
  name: "browser_switch_tab",
  description:
    "Switch to a tab by index (0-based) or by part of its title or URL. With neither: list the tabs.",
  facts: { effect: "leaves" },
  args: z.object({ index: z.int().min(0).optional(), title_contains: z.string().optional() }),
  async handler(args, ctx) {
    const tabs = await ctx.browser.tabs();
    const wanted = args.title_contains?.trim().toLowerCase();
    let index = args.index;
    if (index === undefined && wanted) {
      index = tabs.find((t) => `${t.title} ${t.url}`.toLowerCase().includes(wanted))?.index;
      if (index === undefined) {
        return {
          ok: false,
          kind: "not_found",
          text: `No tab's title or URL contains "${args.title_contains}": ${listTabs(tabs)}`,
        };
      }
    }
    if (index === undefined) return { ok: true, text: listTabs(tabs), data: { tabs } };
    const result = await switchTab.handler({ index }, ctx);
    return { ...result, data: { tabs: await ctx.browser.tabs() } };
  },
});

/** browser_click_and_wait_download(id, timeout_ms?): clicks, then waits for the file. */
export const browserClickAndWaitDownload = defineTool({
  name: "browser_click_and_wait_download",
  description: "Click [id] and wait for the download it starts; returns the saved path.",
  destructive: true,
  facts: { effect: "acts", element: true },
  args: z.object({ id: ID, timeout_ms: TIMEOUT, confirm: CONFIRM }),
  actsAs: (args) => ({ name: "click", args: { id: args.id } }),
  async handler(args, ctx) {
    const timeout = args.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    const mark = ctx.browser.downloadMark();
    const clicked = await click.handler({ id: args.id }, ctx);
    if (!clicked.ok) return clicked;
    // A download that began during the click was waited for and reported by the click itself;
    // one that starts later (a "Preparing your download…" page) is waited for here.
    const during = clicked.outcome?.downloads ?? [];
    if (during.length > 0) return withSaved(clicked, during);
    const saved = await ctx.browser.waitForDownloads(mark, timeout, ctx.signal);
    if (saved.length === 0) {
      return {
        ok: false,
        kind: "timeout",
        text: `${clicked.text} No download started within ${timeout} ms.`,
        data: { paths: [] },
      };
    }
    return withSaved(withLaterDownloads(clicked, saved), saved);
  },
});

/** browser_download_wait(timeout_ms?): waits for a download that starts on its own. */
export const browserDownloadWait = defineTool({
  name: "browser_download_wait",
  description: "Wait for a download to start and finish (e.g. after a countdown page).",
  facts: { effect: "reads" },
  args: z.object({ timeout_ms: TIMEOUT }),
  async handler(args, ctx) {
    const timeout = args.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    const saved = await ctx.browser.waitForDownloads(
      ctx.browser.downloadMark(),
      timeout,
      ctx.signal,
    );
    if (saved.length === 0) {
      return {
        ok: false,
        kind: "timeout",
        text: `No download started within ${timeout} ms`,
        data: { paths: [] },
      };
    }
    return withSaved(
      { ok: true, text: `${capital(saved.map(renderDownload).join("; "))}.` },
      saved,
    );
  },
});

/** browser_upload(id, files): puts a local file into a file input. */
export const browserUpload = defineTool({
  name: "browser_upload",
  description: "Upload a local file into the file input [id] (or the button that opens a chooser).",
  destructive: true,
  facts: { effect: "acts", element: true },
  args: z.object({ id: ID, files: z.array(z.string()) }),
  // Judged by nothing: putting a file into a field sends nothing by itself.
  actsAs: () => undefined,
  handler(args, ctx) {
    const files = args.files;
    if (files.length !== 1 || files[0] === undefined) {
      return Promise.resolve({
        ok: false,
        kind: "invalid_args",
        text: 'Argument "files" must list exactly one local path, e.g. ["./cv.pdf"]',
      });
    }
    return upload.handler({ id: args.id, path: files[0] }, ctx);
  },
});

/** browser_close_banners(): closes cookie and consent banners now. */
export const browserCloseBanners = defineTool({
  name: "browser_close_banners",
  description: "Close cookie/consent banners and overlays (also done automatically after loads).",
  facts: { effect: "acts" },
  args: z.object({}),
  async handler(_args, ctx) {
    const closed = await ctx.browser.closeBanners();
    return {
      ok: true,
      text: closed.length > 0 ? `${capital(closed.join("; "))}.` : "No banner found.",
      data: { closed: closed.length },
    };
  },
});

function listTabs(tabs: { index: number; title: string; url: string; active: boolean }[]): string {
  return tabs.map((t) => `${t.active ? "*" : ""}${t.index} "${t.title}" ${t.url}`).join("; ");
}

/**
 * Adds the saved paths to a result's data; a result whose downloads were none of them saved (still
 * running, canceled, failed) is a failure of that kind.
 */
function withSaved(result: ToolResult, downloads: DownloadRecord[]): ToolResult {
  const paths = downloads.flatMap((d) => d.path ? [d.path] : []);
  const withPaths = { ...result, data: { ...result.data, paths } };
  if (paths.length > 0) return withPaths;
  const running = downloads.some((d) => d.state === "running");
  return { ...withPaths, ok: false, kind: running ? "timeout" : "failed" };
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The tab, download, upload and banner tools. */
export const tabAndFileTools: readonly Tool[] = [
  browserOpenInNewTab,
  browserSwitchTab,
  browserClickAndWaitDownload,
  browserDownloadWait,
  browserUpload,
  browserCloseBanners,
];
