/**
 * `--ui`: the live view around a command — the hub runs feed, the local server, its URL printed
 * on stderr — and how a run's questions and held actions are answered from the page or the
 * terminal, whichever comes first.
 *
 * @module
 */
import { type Config, outputMask } from "../internal/config/mod.ts";
import type { HandOff, RunResult } from "../internal/agent/mod.ts";
import type { StepRecord } from "../internal/entity/mod.ts";
import {
  type LiveBrowser,
  LiveHub,
  LiveTimeoutError,
  startLiveServer,
} from "../internal/live/mod.ts";
import type { ModuleHost } from "../internal/modules/mod.ts";
import { renderWall } from "../internal/tools/mod.ts";
import { log } from "./process_io.ts";

/** Runs `run` with the live view when `--ui` is given (else with none); stops it afterwards. */
export async function withLiveView<T>(
  config: Config,
  modules: ModuleHost | undefined,
  run: (live: LiveHub | undefined) => Promise<T>,
): Promise<T> {
  const ui = config.cli.ui;
  if (!ui) return await run(undefined);
  const mask = outputMask(config);
  const hub = new LiveHub({
    modules: modules?.modules ?? [],
    panels: modules?.panels() ?? new Map(),
    timeoutMs: ui.timeoutMs,
    hideFields: Object.keys(config.run.secrets).length > 0,
    mask: (text) => mask.text(text),
  });
  let server;
  try {
    server = startLiveServer(hub, { port: ui.port, log });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Cannot start the live view on port ${ui.port}: ${why}; pick another --ui PORT`,
    );
  }
  log(`live view: ${server.url}`);
  try {
    return await run(hub);
  } finally {
    await server.close();
  }
}

/** Who answered a question or a held action. */
export type AnsweredBy = "page" | "terminal";

/**
 * An answer from whichever comes first: the page (`page`) or the terminal (`terminal`, when
 * there is one); the other is withdrawn.
 */
export async function answerEither<T>(
  page: (signal: AbortSignal) => Promise<T>,
  terminal: ((signal: AbortSignal) => Promise<T>) | undefined,
  signal: AbortSignal,
): Promise<{ value: T; by: AnsweredBy }> {
  const race = new AbortController();
  const both = AbortSignal.any([signal, race.signal]);
  try {
    const fromPage = page(both).then((value) => ({ value, by: "page" as const }));
    if (!terminal) return await fromPage;
    const fromTerminal = terminal(both).then((value) => ({ value, by: "terminal" as const }));
    return await Promise.race([fromPage, fromTerminal]);
  } finally {
    race.abort(new DOMException("Answered elsewhere", "AbortError"));
  }
}

/** What a run needs of the live view: its signal, questions, feeds and end. */
export interface LiveRunHooks {
  /** The run's signal, also aborted when the page stops the run. */
  signal: AbortSignal;
  askUser?: (question: string) => Promise<string>;
  confirm?: (question: string) => Promise<boolean>;
  handOff?: HandOff;
  onStep(record: StepRecord): void;
  onThinking(step: number): void;
  end(result: RunResult): void;
}

/**
 * Ties one run to the live view: its steps shown (secrets masked), stoppable from the page, and
 * its questions and held actions answered from the page or the terminal, whichever first; who
 * answered is told to `answered` (the trace). Without a hub, the run's own options pass through.
 */
export function liveRunHooks(hub: LiveHub | undefined, o: {
  task: string;
  browser: LiveBrowser;
  signal: AbortSignal;
  mask: (text: string) => string;
  askUser?: (question: string, signal?: AbortSignal) => Promise<string>;
  confirm?: (question: string, signal?: AbortSignal) => Promise<boolean>;
  /** Hands a human-verification check to the person at the terminal (Enter once solved). */
  handOff?: (wall: Parameters<HandOff>[0], signal?: AbortSignal) => Promise<"solved">;
  answered: (by: AnsweredBy) => void;
  notice: (line: string) => void;
}): LiveRunHooks {
  if (!hub) {
    return {
      signal: o.signal,
      ...(o.askUser ? { askUser: (q: string) => o.askUser!(q) } : {}),
      ...(o.confirm ? { confirm: (q: string) => o.confirm!(q) } : {}),
      ...(o.handOff
        ? { handOff: async (wall) => (await o.handOff!(wall), "terminal" as const) }
        : {}),
      onStep: () => {},
      onThinking: () => {},
      end: () => {},
    };
  }
  const run = hub.startRun(o.mask(o.task));
  hub.addBrowser(o.browser);
  const signal = AbortSignal.any([o.signal, run.stopped]);
  const terminalAsk = o.askUser;
  const terminalConfirm = o.confirm;
  const terminalHandOff = o.handOff;
  return {
    signal,
    async askUser(question) {
      const { value, by } = await answerEither(
        (s) => run.ask(o.mask(question), s),
        terminalAsk && ((s) => terminalAsk(question, s)),
        signal,
      );
      o.answered(by);
      if (by === "page") o.notice("answered in the live view");
      return value;
    },
    async confirm(question) {
      try {
        const { value, by } = await answerEither(
          (s) => run.confirm(o.mask(question), s),
          terminalConfirm && ((s) => terminalConfirm(question, s)),
          signal,
        );
        o.answered(by);
        if (by === "page") o.notice(`${value ? "allowed" : "refused"} in the live view`);
        return value;
      } catch (error) {
        if (!(error instanceof LiveTimeoutError)) throw error;
        o.notice(`${error.message}: refused`);
        return false;
      }
    },
    async handOff(wall) {
      // Without a terminal nothing else tells that the run now waits for the page.
      if (!terminalHandOff) {
        o.notice(`the run waits for a person to solve it in the live view${at(hub.url)}`);
      }
      try {
        const { by } = await answerEither(
          (s) => run.handOff(o.mask(renderWall(wall)), wall, o.browser, s),
          terminalHandOff && (async (s) => void await terminalHandOff(wall, s)),
          signal,
        );
        o.answered(by);
        run.checking(by);
        if (by === "page") o.notice("resumed in the live view");
        return by;
      } catch (error) {
        if (!(error instanceof LiveTimeoutError)) throw error;
        o.notice(`${error.message}: the run stops`);
        return "unanswered";
      }
    },
    onStep(record) {
      run.step(JSON.parse(o.mask(JSON.stringify(record))) as StepRecord);
    },
    onThinking: (step) => run.thinking(step),
    end: (result) => run.end(result.reason, o.mask(result.message)),
  };
}

function at(url: string | undefined): string {
  return url ? `: ${url}` : "";
}
