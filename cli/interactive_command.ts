/**
 * No task and a terminal on stdin: an interactive prompt that runs one task after another in the
 * same browser, with `/help`, `/session NAME`, `/sessions`, `/status`, `/quit`.
 *
 * @module
 */
import { type RunResult, taskStartUrl } from "../internal/agent/mod.ts";
import { Repl } from "./repl.ts";
import { type BrowserSession, type SessionLock, SessionProfiles } from "../internal/browser/mod.ts";
import { EXIT } from "../internal/config/mod.ts";
import { printable } from "../internal/llm/mod.ts";
import { formatSessions } from "./sessions_command.ts";
import { checkTask } from "./task_input.ts";
import {
  type CliContext,
  confirmWith,
  defaultRunDir,
  progressFor,
  report,
  runOne,
  steps,
  tokensShown,
} from "./run_one.ts";

/** Runs the prompt until /quit, Ctrl+D, or Ctrl+C at the prompt; returns the exit code. */
export async function interactiveCommand(
  ctx: CliContext,
  input: ReadableStream<Uint8Array>,
): Promise<number> {
  const profiles = new SessionProfiles(ctx.config.dataDir);
  let session = ctx.config.cli.session;
  let lock: SessionLock | undefined = session ? await profiles.lock(session) : undefined;
  let browser: BrowserSession;
  try {
    browser = await ctx.startBrowser(lock?.dir);
  } catch (error) {
    await lock?.release();
    throw error;
  }
  let runs = 0;
  const usage = { promptTokens: 0, completionTokens: 0, requests: 0, estimated: 0 };
  let last: RunResult | undefined;

  const repl: Repl = new Repl({
    input,
    // Questions and /status quote the model and the page: no control characters reach the terminal.
    write: (text) => ctx.stderr(printable(text)),
    run: async (task, signal) => {
      checkTask(task, ctx.config.run.maxRequestTokens);
      runs++;
      const dir = ctx.config.cli.out
        ? `${ctx.config.cli.out}/${String(runs).padStart(2, "0")}`
        : defaultRunDir(ctx.config, task);
      const progress = progressFor(ctx);
      const outcome = await runOne(ctx, {
        task,
        browser,
        signal,
        dir,
        progress,
        // --start-url opens the first task's page; later tasks go on where the last one ended.
        ...(runs > 1 ? { startUrl: taskStartUrl(task) ?? false } : {}),
        askUser: (question, withdrawn) => repl.ask(question, withdrawn),
        confirm: confirmWith((question, withdrawn) => repl.ask(question, withdrawn)),
      });
      report(ctx, outcome, progress);
      last = outcome.result;
      for (const key of Object.keys(usage) as (keyof typeof usage)[]) usage[key] += last.usage[key];
    },
    status: async () => {
      const { url, title } = await browser.location();
      return [
        `session: ${session ?? "none (a temporary profile, deleted on exit)"}`,
        `page: ${url}${title ? ` "${title}"` : ""}`,
        `tasks: ${runs}${last ? `, last ${last.reason} in ${steps(last.steps)}` : ""}`,
        `tokens: ${tokensShown(usage).replace(/ tokens/, "")}`,
        `model: ${ctx.model.model}`,
      ].join("\n");
    },
    sessions: async () => formatSessions(await profiles.list(), profiles.root),
    session: async (name) => {
      if (ctx.config.browser.cdpUrl) {
        return "Sessions need a launched browser: this one is attached with --cdp-url";
      }
      if (name === session) return `Already in session "${name}"`;
      const next = await profiles.lock(name);
      let started: BrowserSession;
      try {
        started = await ctx.startBrowser(next.dir);
      } catch (error) {
        await next.release();
        throw error;
      }
      await browser.close();
      await lock?.release();
      [browser, lock, session] = [started, next, name];
      return `Now in session "${name}" (the browser restarted)`;
    },
    ...(ctx.live ? { tasks: (signal: AbortSignal) => ctx.live!.nextTask(signal) } : {}),
  });
  ctx.live?.acceptTasks();

  const onSignal = () => repl.interrupt();
  Deno.addSignalListener("SIGINT", onSignal);
  try {
    await repl.loop();
  } finally {
    // The listener stays until the browser is closed: a late Ctrl+C must not cut the closing short.
    await browser.close();
    await lock?.release();
    Deno.removeSignalListener("SIGINT", onSignal);
  }
  return EXIT.ok;
}
