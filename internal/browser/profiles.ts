import { ConfigError } from "../entity/mod.ts";

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
      if (!held) {
        const holder = (await Deno.readTextFile(`${dir}/${LOCK}`).catch(() => "")).split("\n")[0];
        throw new ConfigError(
          `Session "${name}" is in use by another run${
            holder ? ` (pid ${holder})` : ""
          }: wait for it to finish, or pick another --session`,
        );
      }
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
