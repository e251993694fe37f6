import type { TabInfo } from "../entity/mod.ts";
import type { HumanInput } from "../tools/mod.ts";
import { type LiveBrowser, LiveRun, type LiveRunState } from "./live_run.ts";

export type {
  LiveBrowser,
  LiveHandOff,
  LiveRunState,
  LiveStatus,
  LiveStep,
  LiveVerification,
} from "./live_run.ts";

/** One event of `GET /api/events`. */
export interface LiveEvent {
  id: number;
  type:
    | "run"
    | "step"
    | "question"
    | "held"
    | "answered"
    | "end"
    | "tabs"
    | "thinking"
    /** A run waits for a person to solve a human-verification check in the page. */
    | "verification"
    /** The command finished and the live view stops: pages stop reconnecting. */
    | "closed";
  data: Record<string, unknown>;
}

/** A module's panel: HTML (with its script) and the handler of its own API routes. */
export interface LivePanel {
  title?: string;
  html: string;
  /** `/api/modules/NAME/PATH` → `handle(request, "PATH")`. */
  handle?(request: Request, path: string): Response | Promise<Response>;
}

/** A module as the live view lists it. */
export interface LiveModule {
  name: string;
  tools: string[];
  panel: boolean;
}

const KEPT_EVENTS = 2000;

interface Pending<T> {
  resolve(value: { value: T; by: "page" }): void;
}

/**
 * What the live view knows and can do: runs (their steps, questions, holds), browsers, modules;
 * the event log a reconnecting page resumes from; answers, confirmations and stops from the page.
 * Front-ends feed it; the server reads it.
 */
export class LiveHub {
  readonly #runs: { state: LiveRunState; stop: AbortController }[] = [];
  readonly #browsers = new Map<string, LiveBrowser>();
  readonly #events: LiveEvent[] = [];
  readonly #listeners = new Set<(event: LiveEvent) => void>();
  readonly #questions = new Map<string, Pending<string>>();
  readonly #holds = new Map<string, Pending<boolean>>();
  /** Runs waiting for a person to solve a check, and the browser their input goes to. */
  readonly #resumes = new Map<string, Pending<boolean>>();
  readonly #handOffs = new Map<string, LiveBrowser>();
  readonly modules: LiveModule[];
  /** Module panels by module name. */
  readonly panels: Map<string, LivePanel>;
  /** How long a question or hold waits for the page, in ms. */
  readonly timeoutMs: number;
  /**
   * Screenshots hide what fields hold (when secrets are configured: a typed secret would show in
   * pixels). Off otherwise: hiding restyles every frame, which the running action would see.
   */
  readonly hideFields: boolean;
  /** Masks secrets in what the page is shown of the browsers (their tabs' titles and addresses). */
  readonly #mask: (text: string) => string;
  /** The page's address with its token, once a server serves it (`startLiveServer`). */
  url?: string;
  /** Tasks sent from the page, and who waits for the next one (an interactive session). */
  readonly #tasks: string[] = [];
  readonly #taskWaiters = new Set<(task: string) => void>();
  #acceptsTasks = false;
  #nextEvent = 1;
  #nextRun = 1;
  #nextBrowser = 1;

  constructor(
    options: {
      modules?: LiveModule[];
      panels?: Map<string, LivePanel>;
      timeoutMs: number;
      hideFields?: boolean;
      /** The command's one mask of secrets (`outputMask`); runs are fed masked already. */
      mask?: (text: string) => string;
    },
  ) {
    this.hideFields = options.hideFields ?? false;
    this.#mask = options.mask ?? ((text) => text);
    this.modules = options.modules ?? [];
    this.panels = options.panels ?? new Map();
    this.timeoutMs = options.timeoutMs;
  }

  /** Starts showing a run; the handle feeds it. */
  startRun(task: string): LiveRun {
    const id = `run-${this.#nextRun++}`;
    const entry = {
      state: {
        id,
        task,
        status: "running",
        steps: [],
        question: null,
        verification: null,
        handOffs: [],
        held: null,
        thinking: null,
        message: null,
      } as LiveRunState,
      stop: new AbortController(),
    };
    this.#runs.push(entry);
    this.#emit("run", { id, task });
    return new LiveRun(this, entry.state, entry.stop.signal);
  }

  /** Shows a browser (the agent's, a batch context, the MCP server's); its id. */
  addBrowser(browser: LiveBrowser): string {
    for (const [id, known] of this.#browsers) if (known === browser) return id;
    const id = `browser-${this.#nextBrowser++}`;
    this.#browsers.set(id, browser);
    this.tabsChanged();
    return id;
  }

  /** Stops showing a browser. */
  removeBrowser(browser: LiveBrowser): void {
    for (const [id, known] of this.#browsers) if (known === browser) this.#browsers.delete(id);
    this.tabsChanged();
  }

  /** Tells the pages that the command finished: the live view stops now. */
  close(): void {
    this.#emit("closed", {});
  }

  /** Tells the page to refresh its browser list. */
  tabsChanged(): void {
    this.#emit("tabs", {});
  }

  /** Everything the page shows, now. */
  async state(): Promise<{
    acceptsTasks: boolean;
    runs: LiveRunState[];
    browsers: {
      id: string;
      tabs: { id: string; title: string; url: string; current: boolean }[];
    }[];
    modules: LiveModule[];
  }> {
    const browsers = [];
    for (const [id, browser] of this.#browsers) {
      if (!browser.connected) continue;
      const tabs: TabInfo[] = await browser.tabs().catch(() => []);
      browsers.push({
        id,
        tabs: tabs.map((t) => ({
          id: `${id}.${t.index}`,
          // A page's title and address may show a secret (or its encoded forms) it was sent.
          title: this.#mask(t.title),
          url: this.#mask(t.url),
          current: t.active,
        })),
      });
    }
    return {
      acceptsTasks: this.#acceptsTasks,
      runs: this.#runs.map((r) => r.state),
      browsers,
      modules: this.modules,
    };
  }

  /** The browser and tab index a tab id (`browser-1.0`) names, or the first browser's current tab. */
  tab(tabId?: string): { browser: LiveBrowser; index?: number } | undefined {
    if (!tabId) {
      const first = [...this.#browsers.values()].find((b) => b.connected);
      return first ? { browser: first } : undefined;
    }
    const [browserId, index] = tabId.split(".");
    const browser = this.#browsers.get(browserId ?? "");
    if (!browser || !/^\d+$/.test(index ?? "")) return undefined;
    return { browser, index: Number(index) };
  }

  /** The browser `id`. */
  browser(id: string): LiveBrowser | undefined {
    return this.#browsers.get(id);
  }

  /** Answers the open question (of `runId`, or the only one); false when there is none. */
  answer(text: string, runId?: string): boolean {
    return this.#settle(this.#questions, text, runId);
  }

  /** Answers the open hold; false when there is none. */
  confirm(allow: boolean, runId?: string): boolean {
    return this.#settle(this.#holds, allow, runId);
  }

  /** The person solved the check a run waits on (of `runId`, or the only one); false when none. */
  resume(runId?: string): boolean {
    return this.#settle(this.#resumes, true, runId);
  }

  /**
   * The browser of a run that waits for a person to solve a check (of `runId`, or the only one),
   * which their clicks and keys go to; undefined when none waits.
   */
  handOffBrowser(runId?: string): LiveBrowser | undefined {
    const id = runId ?? (this.#handOffs.size === 1 ? [...this.#handOffs.keys()][0] : undefined);
    return id === undefined ? undefined : this.#handOffs.get(id);
  }

  /**
   * Sends a person's click or key to the page of a run that waits for them to solve a check;
   * false when none waits (input reaches the page only then).
   */
  async input(input: HumanInput, runId?: string): Promise<boolean> {
    const browser = this.handOffBrowser(runId);
    if (!browser) return false;
    await browser.humanInput(input);
    return true;
  }

  /** Stops a run (or every running one); false when none runs. */
  stop(runId?: string): boolean {
    const running = this.#runs.filter((r) =>
      (runId === undefined || r.state.id === runId) &&
      (r.state.status === "running" || r.state.status === "waiting")
    );
    for (const r of running) {
      r.stop.abort(new DOMException("Stopped from the live view", "AbortError"));
    }
    return running.length > 0;
  }

  /** An interactive session takes tasks from the page from now on. */
  acceptTasks(): void {
    this.#acceptsTasks = true;
    this.#emit("tabs", {});
  }

  /** A task sent from the page; false when no interactive session takes tasks. */
  submitTask(task: string): boolean {
    if (!this.#acceptsTasks) return false;
    const [waiter] = this.#taskWaiters;
    if (waiter) waiter(task);
    else this.#tasks.push(task);
    return true;
  }

  /** The next task sent from the page (rejects when `signal` aborts; then it takes none). */
  nextTask(signal: AbortSignal): Promise<string> {
    const queued = this.#tasks.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const waiter = (task: string) => {
        this.#taskWaiters.delete(waiter);
        signal.removeEventListener("abort", onAbort);
        resolve(task);
      };
      const onAbort = () => {
        this.#taskWaiters.delete(waiter);
        reject(signal.reason);
      };
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.#taskWaiters.add(waiter);
    });
  }

  /** Events after `since` (a reconnect resumes there), then each new one until unsubscribed. */
  subscribe(since: number, listener: (event: LiveEvent) => void): () => void {
    for (const event of this.#events) if (event.id > since) listener(event);
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** @internal Used by {@link LiveRun}. */
  emit(type: LiveEvent["type"], data: Record<string, unknown>): void {
    this.#emit(type, data);
  }

  /** @internal The browser a run's hand-off sends a person's input to, while it lasts. */
  handingOff(runId: string, browser: LiveBrowser | undefined): void {
    if (browser) this.#handOffs.set(runId, browser);
    else this.#handOffs.delete(runId);
  }

  /** @internal Waits for the page's answer to a question or hold of `runId`. */
  waitFor<T>(
    kind: "question" | "hold" | "resume",
    runId: string,
    signal: AbortSignal,
  ): Promise<{ value: T; by: "page" }> {
    const table =
      (kind === "question"
        ? this.#questions
        : kind === "hold"
        ? this.#holds
        : this.#resumes) as Map<string, Pending<T>>;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        done();
        reject(new LiveTimeoutError(this.timeoutMs));
      }, this.timeoutMs);
      const onAbort = () => {
        done();
        reject(signal.reason);
      };
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        table.delete(runId);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      table.set(runId, {
        resolve: (v) => {
          done();
          resolve(v);
        },
      });
    });
  }

  #settle<T>(table: Map<string, Pending<T>>, value: T, runId?: string): boolean {
    const id = runId ?? (table.size === 1 ? [...table.keys()][0] : undefined);
    const pending = id === undefined ? undefined : table.get(id);
    if (!pending) return false;
    pending.resolve({ value, by: "page" });
    return true;
  }

  #emit(type: LiveEvent["type"], data: Record<string, unknown>): void {
    const event = { id: this.#nextEvent++, type, data };
    this.#events.push(event);
    if (this.#events.length > KEPT_EVENTS) this.#events.shift();
    for (const listener of this.#listeners) listener(event);
  }
}

/** Nobody answered in the live view within `--ui-timeout`. */
export class LiveTimeoutError extends Error {
  constructor(ms: number) {
    super(`Nobody answered in the live view within ${ms / 1000} s`);
    this.name = "LiveTimeoutError";
  }
}
