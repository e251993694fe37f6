import { ConfigError } from "../../entity/mod.ts";

/** One persistent session: a browser profile kept under the data directory. */
export interface SessionInfo {
  name: string;
  /** The profile directory Chromium uses. */
  dir: string;
  /** Size on disk, in bytes. */
  bytes: number;
  /** When a run last took the session; undefined when none ever did. */
  lastUsed?: Date;
  /** True while a run holds it. */
  inUse: boolean;
}

/** A held session: its profile directory, locked against other runs until released. */
export interface SessionLock extends AsyncDisposable {
  dir: string;
  release(): Promise<void>;
}

const LOCK = ".browser-agent.lock";

/**
 * Persistent browser profiles by name under `DATA/sessions/NAME`, with a lock so that two runs
 * never share one profile (the second gets a clear error instead of a corrupted profile). The
 * lock is an advisory file lock: the system drops it when the holder dies, so no stale locks.
 *
 * @example
 * ```ts
 * const profiles = new SessionProfiles("/home/ada/.local/share/browser-agent");
 * await using lock = await profiles.lock("work");
 * const browser = await BrowserSession.start({ headless: true, profileDir: lock.dir });
 * ```
 */
export class SessionProfiles {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = `${dataDir}/sessions`;
  }

  /** The profile directory of a session (it may not exist yet). */
  dir(name: string): string {
    return `${this.root}/${name}`;
  }

  /** Takes a session for this run, creating it when new; throws ConfigError when it is in use. */
  async lock(name: string): Promise<SessionLock> {
    if (!/^[A-Za-z0-9][\w.-]{0,63}$/.test(name)) {
      throw new ConfigError(
        `Cannot use session "${name}": use letters, digits, ".", "_" or "-" (at most 64)`,
      );
    }
    const dir = this.dir(name);
    await Deno.mkdir(dir, { recursive: true });
    const file = await Deno.open(`${dir}/${LOCK}`, { read: true, write: true, create: true });
    let held = false;
    try {
      held = await file.tryLock(true);
      if (!held) throw await inUse(name, dir);
      await file.truncate(0);
      await file.write(new TextEncoder().encode(`${Deno.pid}\n${new Date().toISOString()}\n`));
    } catch (error) {
      file.close();
      throw error;
    }
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await file.unlock().catch(() => {/* closing the file drops the lock too */});
      file.close();
    };
    return { dir, release, [Symbol.asyncDispose]: release };
  }

  /**
   * Throws the ConfigError {@link lock} would when another run holds the session, without
   * taking it: a check before anything starts.
   */
  async ensureFree(name: string): Promise<void> {
    const dir = this.dir(name);
    const locked = await isLocked(`${dir}/${LOCK}`).catch(() => false);
    if (locked) throw await inUse(name, dir);
  }

  /** All sessions, most recently used first. */
  async list(): Promise<SessionInfo[]> {
    const out: SessionInfo[] = [];
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(this.root));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    for (const entry of entries) {
      if (!entry.isDirectory) continue;
      const dir = this.dir(entry.name);
      const info: SessionInfo = { name: entry.name, dir, bytes: await sizeOf(dir), inUse: false };
      try {
        const stat = await Deno.stat(`${dir}/${LOCK}`);
        if (stat.mtime) info.lastUsed = stat.mtime;
        info.inUse = await isLocked(`${dir}/${LOCK}`);
      } catch {
        // A session folder without a lock file was never used by a run: nothing more to say.
      }
      out.push(info);
    }
    return out.sort((a, b) => (b.lastUsed?.getTime() ?? 0) - (a.lastUsed?.getTime() ?? 0));
  }

  /** Deletes a session; throws ConfigError when it does not exist or a run holds it. */
  async forget(name: string): Promise<void> {
    try {
      await Deno.stat(this.dir(name));
    } catch {
      throw new ConfigError(`No session "${name}" to forget: see "browser-agent sessions"`);
    }
    const lock = await this.lock(name);
    try {
      await Deno.remove(this.dir(name), { recursive: true });
    } finally {
      await lock.release();
    }
  }
}

async function inUse(name: string, dir: string): Promise<ConfigError> {
  const holder = (await Deno.readTextFile(`${dir}/${LOCK}`).catch(() => "")).split("\n")[0];
  return new ConfigError(
    `Session "${name}" is in use by another run${
      holder ? ` (pid ${holder})` : ""
    }: wait for it to finish, or pick another --session`,
  );
}

async function isLocked(path: string): Promise<boolean> {
  const file = await Deno.open(path, { read: true, write: true });
  try {
    const free = await file.tryLock(true);
    if (free) await file.unlock();
    return !free;
  } finally {
    file.close();
  }
}

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    try {
      if (entry.isDirectory) total += await sizeOf(path);
      else if (entry.isFile) total += (await Deno.stat(path)).size;
    } catch {
      // Chromium deletes temporary files while we count: they no longer take space.
    }
  }
  return total;
}

/** Longest directory Chromium's temporary files may go in: its singleton socket's path adds 46 characters, and a Unix socket path has at most 103 (macOS) or 107 (Linux) characters. */
export const MAX_TEMP_DIR = 56;

const ROOT_PREFIX = "browser-agent-";
const OWNER = "owner.lock";

/**
 * A private directory for one process's temporary files (the temporary browser profile, the
 * downloads staging folder, Chromium's own temporary files): short enough for Chromium's
 * singleton socket, and locked by its owner with a file lock the system drops when the process
 * dies. {@link TempRoot.claim} first removes the roots of owners that are gone (a run killed
 * with SIGKILL, a forced exit), so nothing piles up.
 *
 * @example
 * ```ts
 * const temp = await TempRoot.claim({ tempDir: Deno.env.get("TMPDIR") });
 * try {
 *   // Chromium and Deno.makeTempDir write under temp.dir
 * } finally {
 *   await temp.remove();
 * }
 * ```
 */
export class TempRoot {
  readonly dir: string;
  readonly #lock: Deno.FsFile;
  #removed = false;

  private constructor(dir: string, lock: Deno.FsFile) {
    this.dir = dir;
    this.#lock = lock;
  }

  /**
   * Removes stale roots, then makes and locks a new one under `tempDir` (`TMPDIR`), or under
   * `/tmp` when that path is too long for Chromium. Throws a ConfigError when neither works.
   */
  static async claim(
    options: { tempDir?: string | undefined; os?: string } = {},
  ): Promise<TempRoot> {
    const os = options.os ?? Deno.build.os;
    const given = options.tempDir?.replace(/\/+$/, "") || undefined;
    const fits = (base: string) => os === "windows" || base.length + 21 <= MAX_TEMP_DIR;
    let base = given ?? (os === "windows" ? undefined : "/tmp");
    if (base !== undefined && !fits(base)) {
      if (!await isWritableDir("/tmp")) {
        throw new ConfigError(
          `TMPDIR "${base}" is too long for Chromium's singleton socket (${base.length} characters; at most ${
            MAX_TEMP_DIR - 21
          }) and /tmp cannot be used: set TMPDIR to a shorter directory`,
        );
      }
      base = "/tmp";
    }
    if (base !== undefined) await TempRoot.cleanStale(base);
    let dir: string;
    try {
      dir = await Deno.makeTempDir({ ...(base ? { dir: base } : {}), prefix: ROOT_PREFIX });
    } catch (error) {
      throw new ConfigError(
        `Cannot make a temporary folder in "${base ?? "the system's temporary folder"}" (${
          (error as Error).message
        }): set TMPDIR to a writable directory`,
      );
    }
    const lock = await Deno.open(`${dir}/${OWNER}`, { read: true, write: true, create: true });
    await lock.lock(true);
    await lock.write(new TextEncoder().encode(`${Deno.pid}\n${new Date().toISOString()}\n`));
    return new TempRoot(dir, lock);
  }

  /** Removes the roots under `base` whose owner is gone; returns their paths. */
  static async cleanStale(base: string): Promise<string[]> {
    const removed: string[] = [];
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(base));
    } catch {
      // An unreadable or missing base has nothing of ours to clean.
      return removed;
    }
    for (const entry of entries) {
      if (!entry.isDirectory || !entry.name.startsWith(ROOT_PREFIX)) continue;
      const dir = `${base}/${entry.name}`;
      let file: Deno.FsFile;
      try {
        file = await Deno.open(`${dir}/${OWNER}`, { read: true, write: true });
      } catch {
        continue; // not a root (no owner lock): some other program's, or being made right now
      }
      try {
        if (!await file.tryLock(true)) continue; // its owner is alive
        await Deno.remove(dir, { recursive: true });
        removed.push(dir);
      } catch {
        // Someone else removes it at the same moment, or a file is busy: the next start retries.
      } finally {
        file.close();
      }
    }
    return removed;
  }

  /** Removes the root and everything in it (once the browsers writing there are closed). */
  async remove(): Promise<void> {
    if (this.#removed) return;
    this.#removed = true;
    await Deno.remove(this.dir, { recursive: true }).catch(() => {/* gone already */});
    this.#lock.close();
  }

  /** The same at once, for a forced exit that cannot wait. */
  removeSync(): void {
    if (this.#removed) return;
    this.#removed = true;
    // A browser killed a moment ago may still write a file or two while it dies: a few tries,
    // 25 ms apart (this runs on a forced exit, which cannot await); the next start removes the rest.
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let attempt = 0; attempt < 8; attempt++) {
      try {
        Deno.removeSync(this.dir, { recursive: true });
        Deno.statSync(this.dir);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) break;
      }
      Atomics.wait(pause, 0, 0, 25);
    }
    this.#lock.close();
  }
}

async function isWritableDir(dir: string): Promise<boolean> {
  try {
    const probe = await Deno.makeTempFile({ dir, prefix: ".browser-agent-probe-" });
    await Deno.remove(probe);
    return true;
  } catch {
    return false;
  }
}
