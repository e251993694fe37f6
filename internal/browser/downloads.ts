import { basename, extname, join, resolve } from "node:path";
import type { Browser, CDPSession, Target } from "puppeteer-core";
import { withDeadline } from "./deadline.ts";

/** Longest wait for one download to finish, in ms. */
const DOWNLOAD_TIMEOUT_MS = 120_000;

interface Item {
  guid: string;
  url: string;
  name: string;
  state: "inProgress" | "completed" | "canceled";
  bytes: number;
  finished: PromiseWithResolvers<void>;
}

/**
 * Saves what pages download into one directory: the browser writes into a private staging
 * directory, then each finished file moves to the downloads directory under its suggested name,
 * renamed `name (1).ext` on a conflict, never overwriting.
 *
 * @example
 * ```ts
 * const downloads = await Downloads.start(browser, "./downloads");
 * const mark = downloads.mark();
 * await el.click();
 * console.log(await downloads.finishSince(mark)); // ['downloaded "a.csv" (12 bytes) to …']
 * ```
 */
export class Downloads implements AsyncDisposable {
  readonly #dir: string;
  readonly #staging: string;
  readonly #session: CDPSession;
  readonly #items: Item[] = [];
  /** Called when a download begins, with its URL (its request never "finishes"). */
  onBegin: (url: string) => void = () => {};

  private constructor(dir: string, staging: string, session: CDPSession) {
    this.#dir = dir;
    this.#staging = staging;
    this.#session = session;
  }

  /**
   * Sends the browser's downloads to `dir` (created on the first download). With `contextId`,
   * only that browser context's; `owns` keeps the downloads of this session's frames.
   */
  static async start(
    browser: Browser,
    dir: string,
    scope: { contextId?: string | undefined; owns?: (frameId: string) => boolean } = {},
  ): Promise<Downloads> {
    const staging = await Deno.makeTempDir({ prefix: "browser-agent-downloads-" });
    let session: CDPSession;
    try {
      session = await browserTarget(browser).createCDPSession();
    } catch (error) {
      await Deno.remove(staging, { recursive: true }).catch(() => {/* best effort */});
      throw error;
    }
    const downloads = new Downloads(resolve(dir), staging, session);
    session.on("Browser.downloadWillBegin", (e) => {
      if (scope.owns && !scope.owns(e.frameId)) return; // another session's download
      const finished = Promise.withResolvers<void>();
      downloads.#items.push({
        guid: e.guid,
        url: e.url,
        name: e.suggestedFilename,
        state: "inProgress",
        bytes: 0,
        finished,
      });
      downloads.onBegin(e.url);
    });
    session.on("Browser.downloadProgress", (e) => {
      const item = downloads.#items.find((i) => i.guid === e.guid);
      if (!item || e.state === "inProgress") return;
      item.state = e.state;
      item.bytes = e.receivedBytes;
      item.finished.resolve();
    });
    try {
      await session.send("Browser.setDownloadBehavior", {
        behavior: "allowAndName",
        downloadPath: staging,
        eventsEnabled: true,
        ...(scope.contextId ? { browserContextId: scope.contextId } : {}),
      });
    } catch (error) {
      await downloads[Symbol.asyncDispose]();
      throw error;
    }
    return downloads;
  }

  /** The downloads directory, absolute. */
  get dir(): string {
    return this.#dir;
  }

  /** A position to pass to {@link finishSince}. */
  mark(): number {
    return this.#items.length;
  }

  /** True when a download began since `mark`. */
  beganSince(mark: number): boolean {
    return this.#items.length > mark;
  }

  /**
   * Waits for the downloads that began since `mark` to finish, moves each into the downloads
   * directory and returns one phrase per download (saved path and size, or why it failed).
   */
  async finishSince(mark: number, signal?: AbortSignal): Promise<string[]> {
    const out: string[] = [];
    for (const item of this.#items.slice(mark)) {
      // finished never rejects: a rejection here is the deadline or the signal.
      const timedOut = await withDeadline(item.finished.promise, DOWNLOAD_TIMEOUT_MS, signal)
        .then(() => false, () => true);
      if (timedOut) {
        out.push(
          `a download of ${JSON.stringify(item.name)} is still running after ${
            DOWNLOAD_TIMEOUT_MS / 1000
          } s`,
        );
        continue;
      }
      if (item.state === "canceled") {
        out.push(`the download of ${JSON.stringify(item.name)} was canceled`);
        continue;
      }
      try {
        const path = await this.#save(item);
        out.push(`downloaded ${JSON.stringify(basename(path))} (${size(item.bytes)}) to ${path}`);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        out.push(`the download of ${JSON.stringify(item.name)} could not be saved: ${why}`);
      }
    }
    return out;
  }

  async #save(item: Item): Promise<string> {
    await Deno.mkdir(this.#dir, { recursive: true });
    const wanted = safeName(item.name);
    const ext = extname(wanted);
    const stem = wanted.slice(0, wanted.length - ext.length);
    for (let n = 0;; n++) {
      const path = join(this.#dir, n === 0 ? wanted : `${stem} (${n})${ext}`);
      try {
        // Claim the name atomically, so a file that exists is never overwritten.
        (await Deno.open(path, { createNew: true, write: true })).close();
      } catch (error) {
        if (error instanceof Deno.errors.AlreadyExists) continue;
        throw error;
      }
      const from = join(this.#staging, item.guid);
      try {
        await Deno.rename(from, path);
      } catch {
        // Another file system: copy, then drop the staged file.
        await Deno.copyFile(from, path);
        await Deno.remove(from);
      }
      return path;
    }
  }

  /** Stops listening and removes the staging directory. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#session.detach().catch(() => {/* the browser is gone already */});
    await Deno.remove(this.#staging, { recursive: true }).catch(() => {/* best effort */});
  }
}

/** A file name without directories or characters file systems refuse. */
function safeName(name: string): string {
  // deno-lint-ignore no-control-regex
  const cleaned = basename(name.replaceAll("\\", "/")).replace(/[\x00-\x1f<>:"|?*]/g, "_").trim();
  return cleaned && cleaned !== "." && cleaned !== ".." ? cleaned : "download";
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const browserTargets = new WeakMap<Browser, Target>();

/**
 * The browser's own target, remembered: once a session on it detaches (an isolated context's
 * downloads closing), puppeteer no longer lists it and `browser.target()` throws.
 */
function browserTarget(browser: Browser): Target {
  let target = browserTargets.get(browser);
  if (!target) {
    target = browser.target();
    browserTargets.set(browser, target);
  }
  return target;
}
