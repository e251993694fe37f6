import { basename, extname, join, resolve } from "node:path";
import type { CDPSession, Frame, Page } from "puppeteer-core";
import type { DownloadRecord } from "../../entity/mod.ts";
import { withDeadline } from "../shared/deadline.ts";
import { WAITS } from "../shared/budgets.ts";

interface Item {
  guid: string;
  url: string;
  name: string;
  state: "inProgress" | "completed" | "canceled";
  bytes: number;
  finished: PromiseWithResolvers<void>;
  /** Once it finished: saved into the downloads directory (or why not), whoever waits for it. */
  result?: Promise<DownloadRecord>;
  /** Its final record was handed to an action's outcome. */
  reported: boolean;
}

/**
 * Saves what pages download into one directory: the browser writes into a private staging
 * directory, then each finished file moves to the downloads directory under its suggested name,
 * renamed `name (1).ext` on a conflict, never overwriting.
 *
 * @example
 * ```ts
 * const downloads = await Downloads.start(() => browserCdpSession(browser), "./downloads");
 * await el.click();
 * console.log(await downloads.finishPending()); // [{ name: "a.csv", state: "saved", path: "…" }]
 * ```
 */
export class Downloads implements AsyncDisposable {
  readonly #dir: string;
  readonly #staging: string;
  readonly #session: CDPSession;
  readonly #items: Item[] = [];
  /** Where the downloads finished so far were saved. */
  readonly #saved: string[] = [];
  /** Called when a download begins, with its URL (its request never "finishes"). */
  onBegin: (url: string) => void = () => {};

  private constructor(dir: string, staging: string, session: CDPSession) {
    this.#dir = dir;
    this.#staging = staging;
    this.#session = session;
  }

  /**
   * Sends the browser's downloads to `dir` (created on the first download), on the browser-level
   * CDP session `attach` opens (the session's port gives it). With `contextId`, only that browser
   * context's; with `pages`, only those started in these tabs' frames.
   */
  static async start(
    attach: () => Promise<CDPSession>,
    dir: string,
    scope: { contextId?: string | undefined; pages?: () => readonly Page[] } = {},
  ): Promise<Downloads> {
    const staging = await Deno.makeTempDir({ prefix: "browser-agent-downloads-" });
    let session: CDPSession;
    try {
      session = await attach();
    } catch (error) {
      await Deno.remove(staging, { recursive: true }).catch(() => {/* best effort */});
      throw error;
    }
    const downloads = new Downloads(resolve(dir), staging, session);
    session.on("Browser.downloadWillBegin", (e) => {
      const pages = scope.pages?.();
      if (pages && !pages.some((p) => p.frames().some((f) => frameIdOf(f) === e.frameId))) {
        return; // another session's download
      }
      const finished = Promise.withResolvers<void>();
      downloads.#items.push({
        guid: e.guid,
        url: e.url,
        name: e.suggestedFilename,
        state: "inProgress",
        bytes: 0,
        finished,
        reported: false,
      });
      downloads.onBegin(e.url);
    });
    session.on("Browser.downloadProgress", (e) => {
      const item = downloads.#items.find((i) => i.guid === e.guid);
      if (!item || e.state === "inProgress") return;
      item.state = e.state;
      item.bytes = e.receivedBytes;
      // Saved as soon as it finishes, so a file that outlasts every wait is not lost.
      item.result = downloads.#settle(item);
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

  /** The paths of the files saved so far (a tab may open them, whatever the rule on files). */
  get saved(): readonly string[] {
    return this.#saved;
  }

  /** A position in the list of downloads, for {@link beganSince}. */
  mark(): number {
    return this.#items.length;
  }

  /** True when a download began since `mark`. */
  beganSince(mark: number): boolean {
    return this.#items.length > mark;
  }

  /** True when a download began that was not finished and reported yet. */
  get pending(): boolean {
    return this.#items.some((i) => !i.reported);
  }

  /**
   * Waits for every download not reported yet (begun during an action, or since the last one) to
   * finish, up to two minutes each; one record per download. One still running is reported as
   * such and reported again once it finished (it is saved when it does, whoever waits).
   */
  async finishPending(signal?: AbortSignal): Promise<DownloadRecord[]> {
    const out: DownloadRecord[] = [];
    for (const item of this.#items.filter((i) => !i.reported)) {
      const started = performance.now();
      // finished never rejects: a rejection here is the deadline or the signal.
      const waited = await withDeadline(item.finished.promise, WAITS.download.ms, signal)
        .then(() => true, () => false);
      if (!waited || !item.result) {
        const waitedMs = Math.round(performance.now() - started);
        out.push({ name: item.name, state: "running", waitedMs });
        continue;
      }
      item.reported = true;
      out.push(await item.result);
    }
    return out;
  }

  /** A finished download's record: saved into the downloads directory, canceled, or failed. */
  async #settle(item: Item): Promise<DownloadRecord> {
    if (item.state === "canceled") return { name: item.name, state: "canceled" };
    try {
      const path = await this.#save(item);
      this.#saved.push(path);
      return { name: basename(path), state: "saved", path, bytes: item.bytes };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return { name: item.name, state: "failed", error: why };
    }
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
    // Files that finished are moved out of the staging directory before it goes.
    await Promise.allSettled(this.#items.flatMap((i) => i.result ? [i.result] : []));
    await Deno.remove(this.#staging, { recursive: true }).catch(() => {/* best effort */});
  }
}

/** A file name without directories or characters file systems refuse. */
function safeName(name: string): string {
  // deno-lint-ignore no-control-regex
  const cleaned = basename(name.replaceAll("\\", "/")).replace(/[\x00-\x1f<>:"|?*]/g, "_").trim();
  return cleaned && cleaned !== "." && cleaned !== ".." ? cleaned : "download";
}

/** puppeteer's frame ID (the CDP one); public in practice, internal in its types. */
function frameIdOf(frame: Frame): string {
  return (frame as unknown as { _id: string })._id;
}
