/** What the interactive prompt drives; main supplies the browser-facing parts. */
export interface ReplOptions {
  /** Lines typed by the person (stdin). */
  input: ReadableStream<Uint8Array>;
  /** Writes prompts and messages (stderr). */
  write: (text: string) => void;
  /** Runs one task in the open browser and prints its outcome; `signal` aborts on Ctrl+C. */
  run: (task: string, signal: AbortSignal) => Promise<void>;
  /** One or more lines for `/status`. */
  status: () => string | Promise<string>;
  /** The list for `/sessions`. */
  sessions: () => Promise<string>;
  /** Switches to another persistent session (restarting the browser); returns a message. */
  session: (name: string) => Promise<string>;
  /** Tasks from elsewhere (the live view's page), raced with the typed line at the prompt. */
  tasks?: (signal: AbortSignal) => Promise<string>;
}

const HELP = `Type a task and press Enter; it runs in the open browser. Commands:
  /help           this help
  /session NAME   switch to the persistent session NAME (restarts the browser)
  /sessions       list saved sessions
  /status         the browser, the session and the tasks run so far
  /quit           close the browser and exit (or Ctrl+D)
Ctrl+C stops the running task; at the prompt it exits.
`;

/**
 * The interactive prompt: runs one task after another in the same browser, with a few slash
 * commands. Ctrl+C ({@link Repl.interrupt}) stops the running task and keeps the browser; at the
 * prompt (so a second Ctrl+C) it exits.
 *
 * @example
 * ```ts
 * const repl = new Repl({ input: Deno.stdin.readable, write, run, status, sessions, session });
 * Deno.addSignalListener("SIGINT", () => repl.interrupt());
 * await repl.loop();
 * ```
 */
export class Repl {
  readonly #o: ReplOptions;
  readonly #lines: LineReader;
  #task: AbortController | undefined;
  #idle: AbortController | undefined;
  #quit = false;

  constructor(options: ReplOptions) {
    this.#o = options;
    this.#lines = new LineReader(options.input);
  }

  /** Runs the prompt until `/quit`, end of input, or Ctrl+C at the prompt. */
  async loop(): Promise<void> {
    this.#o.write("browser-agent: type a task, or /help for commands.\n");
    while (!this.#quit) {
      this.#o.write("> ");
      this.#idle = new AbortController();
      const fromPage = this.#o.tasks;
      const idle = this.#idle;
      const line = fromPage
        ? await Promise.race([
          this.#lines.next(idle.signal),
          fromPage(idle.signal).then((task) => {
            this.#o.write(`${task} (from the live view)\n`);
            return task;
          }),
        ]).catch(() => null).finally(() => idle.abort())
        : await this.#lines.next(idle.signal).catch(() => null);
      this.#idle = undefined;
      if (line === null && this.#quit) break;
      if (line === null) {
        this.#o.write("\n");
        break;
      }
      const text = line.trim();
      if (!text) continue;
      if (text.startsWith("/")) await this.#command(text);
      else await this.#run(text);
    }
  }

  /** Ctrl+C: stops the running task, or exits at the prompt. */
  interrupt(): void {
    if (this.#task && !this.#task.signal.aborted) {
      this.#o.write("\nstopping the task (Ctrl+C again to exit)\n");
      this.#task.abort(new DOMException("Stopped by the user", "AbortError"));
      return;
    }
    this.#quit = true;
    this.#task?.abort(new DOMException("Stopped by the user", "AbortError"));
    this.#idle?.abort();
  }

  /**
   * Asks the person a question during a task; rejects when the task is stopped or the question
   * is `withdrawn` (answered elsewhere).
   */
  async ask(question: string, withdrawn?: AbortSignal): Promise<string> {
    this.#o.write(`? ${question}\n> `);
    const task = this.#task?.signal;
    const signal = task && withdrawn ? AbortSignal.any([task, withdrawn]) : task ?? withdrawn;
    const line = await this.#lines.next(signal);
    if (line === null) throw new Error("No answer: the input ended");
    return line.trim();
  }

  async #run(task: string): Promise<void> {
    this.#task = new AbortController();
    try {
      await this.#o.run(task, this.#task.signal);
    } catch (error) {
      this.#o.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    } finally {
      this.#task = undefined;
    }
  }

  async #command(text: string): Promise<void> {
    const [command, ...rest] = text.split(/\s+/);
    const arg = rest.join(" ");
    try {
      switch (command) {
        case "/help":
          this.#o.write(HELP);
          return;
        case "/quit":
        case "/exit":
          this.#quit = true;
          return;
        case "/status":
          this.#o.write(`${await this.#o.status()}\n`);
          return;
        case "/sessions":
          this.#o.write(`${await this.#o.sessions()}\n`);
          return;
        case "/session":
          if (!arg) {
            this.#o.write("Give a name: /session NAME\n");
            return;
          }
          this.#o.write(`${await this.#o.session(arg)}\n`);
          return;
        default:
          this.#o.write(`Unknown command "${command}": /help lists them\n`);
      }
    } catch (error) {
      this.#o.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
}

/**
 * Lines from a byte stream, read in the background. A waiter that gives up (its signal aborts)
 * takes no line, so the next line goes to whoever asks next.
 */
export class LineReader {
  readonly #input: ReadableStream<Uint8Array>;
  readonly #queue: (string | null)[] = [];
  readonly #waiters: ((line: string | null) => void)[] = [];
  #started = false;

  constructor(input: ReadableStream<Uint8Array>) {
    this.#input = input;
  }

  /** The next line without its end; null at the end of input. Rejects when `signal` aborts. */
  next(signal?: AbortSignal): Promise<string | null> {
    this.#start();
    if (this.#queue.length > 0) {
      const line = this.#queue[0]!;
      if (line !== null) this.#queue.shift(); // the end stays, for every later caller
      return Promise.resolve(line);
    }
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter = (line: string | null) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(line);
      };
      const onAbort = () => {
        const i = this.#waiters.indexOf(waiter);
        if (i >= 0) this.#waiters.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  #start(): void {
    if (this.#started) return;
    this.#started = true;
    (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      try {
        for await (const chunk of this.#input) {
          buffer += decoder.decode(chunk, { stream: true });
          let nl;
          while ((nl = buffer.indexOf("\n")) >= 0) {
            this.#push(buffer.slice(0, nl).replace(/\r$/, ""));
            buffer = buffer.slice(nl + 1);
          }
        }
      } catch {
        // A closed terminal ends the input like Ctrl+D does.
      }
      if (buffer) this.#push(buffer);
      this.#push(null);
    })();
  }

  #push(line: string | null): void {
    if (line === null) {
      this.#queue.push(null);
      for (const waiter of this.#waiters.splice(0)) waiter(null);
      return;
    }
    const waiter = this.#waiters.shift();
    if (waiter) waiter(line);
    else this.#queue.push(line);
  }
}
