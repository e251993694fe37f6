import type { StepRecord } from "../internal/entity/mod.ts";
import { printable } from "../internal/llm/mod.ts";
import { describeCall } from "../internal/tools/mod.ts";
import { spokenText } from "./spoken.ts";

/** How progress is shown. */
export interface ProgressOptions {
  /** Writes text to the progress stream (stderr). */
  write: (text: string) => void;
  /** The progress stream is a terminal: a spinner may redraw its line. */
  terminal: boolean;
  /** Colours (a terminal, NO_COLOR unset, not --plain). */
  color: boolean;
  /** No progress at all, only errors (`--quiet`). */
  quiet?: boolean;
  /** The reasoning, tokens and timings of each step too (`--verbose`). */
  verbose?: boolean;
  /** No symbols: words and numbers only, for screen readers (`--plain`). */
  plain?: boolean;
  /** Put before every line, e.g. the batch task's name. */
  prefix?: string;
  /** Also reads every line aloud (`--speak`), in its `--plain` form. */
  speak?: (line: string) => void;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * Progress on stderr: one short line per step (`step 3 · click [12] "Search" · ok (240 ms)`),
 * and while the model thinks, a spinner with the elapsed time, only on a terminal and not with
 * `--plain` (a redrawn line is noise for a screen reader).
 *
 * @example
 * ```ts
 * const progress = new Progress({ write: (t) => Deno.stderr.writeSync(enc(t)), terminal: false, color: false });
 * await runTask({ ...options, ...progress.hooks() });
 * ```
 */
export class Progress {
  readonly #o: ProgressOptions;
  #timer: ReturnType<typeof setInterval> | undefined;
  #model: { ms: number; tokens: number; estimated: boolean } | undefined;
  #pageTokens = 0;

  constructor(options: ProgressOptions) {
    this.#o = options.prefix ? { ...options, prefix: printable(options.prefix) } : options;
  }

  /** The run callbacks that drive the progress lines. */
  hooks(): {
    onThinking: (step: number) => void;
    onStep: (record: StepRecord) => void;
    onObserved: (step: number, state: { summary: string }) => void;
    onModelReply: (
      step: number,
      reply: {
        usage: { promptTokens: number; completionTokens: number; estimated?: boolean };
        ms: number;
      },
    ) => void;
  } {
    return {
      onThinking: (step) => this.thinking(step),
      onStep: (record) => this.step(record),
      onObserved: (_, state) => {
        this.#pageTokens = Math.ceil(state.summary.length / 4);
      },
      onModelReply: (_, reply) => {
        this.#model = {
          ms: reply.ms,
          tokens: reply.usage.promptTokens + reply.usage.completionTokens,
          estimated: reply.usage.estimated === true,
        };
      },
    };
  }

  /** Starts the spinner for a step (terminal only). */
  thinking(step: number): void {
    this.#stopSpinner();
    const o = this.#o;
    if (o.quiet || !o.terminal || o.plain) return;
    const started = performance.now();
    let frame = 0;
    const draw = () => {
      const s = ((performance.now() - started) / 1000).toFixed(1);
      o.write(
        `\r\x1b[K${FRAMES[frame++ % FRAMES.length]} ${
          o.prefix ?? ""
        }step ${step} · thinking ${s} s`,
      );
    };
    draw();
    this.#timer = setInterval(draw, 100);
  }

  /** Prints the line of a finished step. */
  step(record: StepRecord): void {
    this.#stopSpinner();
    if (this.#o.quiet) return;
    this.#emit(this.#stepLine(record));
    if (this.#o.verbose) {
      const parts = [`why: ${record.call.reasoning || "(no reasoning)"}`];
      if (this.#model) {
        const about = this.#model.estimated ? " (estimated)" : "";
        parts.push(`model ${this.#model.ms} ms, ${this.#model.tokens} tokens${about}`);
      }
      parts.push(`page ${this.#pageTokens} tokens`);
      this.line(`  ${parts.join(this.#sep())}`);
    }
  }

  /** Prints one line of information (not in quiet mode). */
  info(text: string): void {
    this.#stopSpinner();
    if (!this.#o.quiet) this.line(text);
  }

  /**
   * Prints a line whatever the mode (errors, results). Control characters in it are escaped
   * (see `printable`): the line may quote the model or a page.
   */
  line(text: string): void {
    this.#emit(printable(text));
  }

  /** Writes a line whose own escape codes (colours) are meant. */
  #emit(text: string): void {
    this.#stopSpinner();
    this.#o.write(`${this.#o.prefix ?? ""}${this.#o.plain ? plainText(text) : text}\n`);
    this.#o.speak?.(spokenText(plainText(text)));
  }

  /** Reads `text` aloud with `--speak` (a question, the answer), without printing it. */
  say(text: string): void {
    this.#o.speak?.(spokenText(plainText(text)));
  }

  /** Stops the spinner; call before printing anything else. */
  stop(): void {
    this.#stopSpinner();
  }

  /** Colours text when colours are on. */
  paint(text: string, code: number): string {
    return this.#o.color && !this.#o.plain ? `\x1b[${code}m${text}\x1b[0m` : text;
  }

  #sep(): string {
    return this.#o.plain ? ", " : " · ";
  }

  #stepLine(record: StepRecord): string {
    const { call, result } = record;
    const what = printable(oneLine(describeCall(call, record.target)));
    const status = result.ok
      ? this.paint("ok", 32)
      : this.paint(`error: ${printable(oneLine(result.text))}`, 31);
    return this.#o.plain
      ? `step ${record.step}, ${what.trim()}, ${status}, ${record.ms} ms`
      : `step ${record.step} · ${what.trim()} · ${status} (${record.ms} ms)`;
  }

  #stopSpinner(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#o.write("\r\x1b[K");
  }
}

/** Drops symbols a screen reader would spell out: separators, brackets, ellipses. */
function plainText(text: string): string {
  return text.replace(/ · /g, ", ").replace(/…/g, "...").replace(/\[(\d+)\]/g, "$1");
}

function oneLine(text: string): string {
  const t = text.replace(/\s+/g, " ");
  return t.length > 160 ? t.slice(0, 159) + "…" : t;
}
