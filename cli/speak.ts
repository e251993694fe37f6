/**
 * `--speak`: progress lines, questions, held actions and the answer read aloud by a speech
 * program, one utterance at a time, never holding up the run.
 *
 * @module
 */
import { printable } from "../internal/llm/mod.ts";

/** Colour codes of progress lines (not spoken). */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** Speech programs tried in order when `--speak` names none. */
export const SPEECH_PROGRAMS = ["espeak-ng", "spd-say", "say"];

/**
 * Speaks lines in order through `CMD TEXT` (the text as the last argument, never through a
 * shell). Lines queue up; a failing program is reported once and then left alone.
 *
 * @example
 * ```ts
 * const speaker = Speaker.create("", console.error);
 * speaker?.say("step 1, navigate, ok");
 * await speaker?.idle();
 * ```
 */
export class Speaker {
  readonly #command: string[];
  readonly #log: (line: string) => void;
  #queue: Promise<void> = Promise.resolve();
  #failed = false;

  private constructor(command: string[], log: (line: string) => void) {
    this.#command = command;
    this.#log = log;
  }

  /**
   * A speaker for `command` ("" for the first of {@link SPEECH_PROGRAMS} on `PATH`); undefined,
   * after one line saying what to install, when there is none.
   */
  static create(command: string, log: (line: string) => void, path = Deno.env.get("PATH")) {
    const words = command.trim().split(/\s+/).filter(Boolean);
    if (words.length > 0) return new Speaker(words, log);
    const found = SPEECH_PROGRAMS.find((name) => onPath(name, path));
    if (!found) {
      log(
        `--speak: no speech program found (${
          SPEECH_PROGRAMS.join(", ")
        }): install espeak-ng (apt-get install espeak-ng), or give one with --speak=CMD`,
      );
      return undefined;
    }
    return new Speaker([found], log);
  }

  /** Queues `text` (control characters escaped, symbols a voice would spell out dropped). */
  say(text: string): void {
    const line = printable(text.replace(ANSI, "")).replace(/ · /g, ", ")
      .replace(/[•◉○☑☐⚠️]/gu, "").trim();
    if (!line || this.#failed) return;
    this.#queue = this.#queue.then(() => this.#speak(line));
  }

  /** Resolves when everything queued was spoken. */
  idle(): Promise<void> {
    return this.#queue;
  }

  async #speak(line: string): Promise<void> {
    if (this.#failed) return;
    try {
      const [program, ...args] = this.#command;
      const out = await new Deno.Command(program!, {
        args: [...args, line],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).output();
      if (!out.success) throw new Error(`it exited with code ${out.code}`);
    } catch (error) {
      this.#failed = true;
      this.#log(
        `--speak: cannot run "${this.#command[0]}" (${
          error instanceof Error ? error.message.split("\n")[0] : error
        }): speech is off for this run`,
      );
    }
  }
}

function onPath(name: string, path: string | undefined): boolean {
  for (const dir of (path ?? "").split(":").filter(Boolean)) {
    try {
      if (Deno.statSync(`${dir}/${name}`).isFile) return true;
    } catch { /* not here */ }
  }
  return false;
}
