import { DEFAULT_MODEL } from "./config.ts";
import { flagHelpLines } from "./flags.ts";

/** Exit codes, documented in `--help` and the README. */
export const EXIT = {
  /** The model called done with success. */
  ok: 0,
  /** The task failed, a budget ran out (steps, time, tokens), or the agent was stuck in a loop. */
  failed: 1,
  /** Usage or configuration error: a flag, a variable, the API key, the browser path. */
  usage: 2,
  /** The agent needs the user: ask_user, or a destructive action held, without a terminal. */
  needsUser: 3,
  /** Runtime error: the browser crashed or the model server failed after retries. */
  error: 4,
  /** Stopped by Ctrl+C. */
  interrupted: 130,
} as const;

/** The text of `--help`. */
export function helpText(version: string): string {
  return `browser-agent ${version}: an LLM agent that reaches a goal in a real Chromium.

Usage:
  echo "find the price of the Trailblazer 2 backpack on http://…" | browser-agent
  browser-agent [flags] "task"
  browser-agent mcp [browser flags]   the browser tools for an MCP client, over stdio
                                      (--yes confirms destructive actions there too)
  browser-agent                       (in a terminal) an interactive prompt; /help lists its commands
  browser-agent --replay RUN_FOLDER   re-run a recorded run without a model (CI smoke tests)
  browser-agent --tasks FILE.jsonl    a batch; --junit FILE for CI, --shard I/N for a CI matrix
  browser-agent merge-reports DIR...  merge the shards' JUnit files (--junit FILE, --jsonl FILE)
  browser-agent sessions [--json]     list saved sessions (--session NAME --forget deletes one)

Flags:
${flagHelpLines().join("\n")}

Model (environment or .env in the working directory):
  OPENAI_API_KEY    API key (not needed for local servers)
  OPENAI_BASE_URL   any OpenAI-compatible server, e.g. http://localhost:11434/v1 (Ollama)
  OPENAI_MODEL      model name (default: ${DEFAULT_MODEL})

Output: one progress line per step on stderr; the answer on stdout. Every run writes a folder with
trace.jsonl, screenshots and report.html (--out DIR); sessions and runs live in DATA, which is
$XDG_DATA_HOME/browser-agent, else ~/.local/share/browser-agent (macOS: ~/Library/Application
Support/browser-agent; Windows: %LOCALAPPDATA%\\browser-agent).

Limits: a task may take a quarter of --max-request-tokens (6000 tokens, about 24000 characters
of English, by default); bad flags, too long a task or a task that is not text exit with 2.

Exit codes:
  0    done: the task succeeded
  1    not done: goal_failed, budget_exhausted (steps, time, tokens) or loop_stuck
  2    usage or configuration error
  3    needs_user: a question, or a destructive action held (no terminal, no --yes)
  4    runtime error: the browser crashed or the model server failed after retries
  130  stopped by Ctrl+C
`;
}
