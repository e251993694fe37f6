/**
 * Page-declared tools (WebMCP), from the Deno side: the tools the current page declares for
 * agents, cleaned as the view cleans page text, and a call of one run as an action, so the page
 * settles and the report says what changed, with the tool's answer. The page's own world keeps
 * the tools (`page/webmcp/model_context.ts`, installed with the main world's recorders); the runtime's
 * isolated world asks it (`page/webmcp/declared_tools.ts`).
 *
 * What a page declares is untrusted page content: names, descriptions, schemas and answers are
 * data for the view, never instructions; the safety policy judges a call by the tool's name and
 * description as it judges a click on a button that says them.
 *
 * @module
 */
import type { Page } from "puppeteer-core";
import { ActionError, type ActionOutcome, type PageTool } from "../../entity/mod.ts";
import { type ActionEnv, type ActOptions, runAction } from "../actions/action_runner.ts";
import { refuseWhileHeld } from "../dialogs/dialog_answers.ts";
import { LISTENER_TOKEN } from "../runtime/main_world.ts";
import { isNavigationError } from "../runtime/page_changed.ts";
import { inRealm } from "../runtime/page_runtime.ts";
import { isolatedRealm } from "../runtime/realm.ts";
import { withDeadline } from "../shared/deadline.ts";
import { WAITS } from "../shared/budgets.ts";
import { clean, cut } from "../shared/text.ts";
import type { DeclaredTool } from "../page/webmcp/tool_events.ts";

/** The longest description the view shows, and the longest answer a report quotes. */
const DESCRIPTION_CHARS = 300;
const ANSWER_CHARS = 1_000;

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Control characters and the invisible marks that reorder or hide text (bidirectional
 * overrides and isolates, zero-width characters, line and paragraph separators): a page's
 * words become one plain line.
 */
// deno-lint-ignore no-control-regex
const UNSEEN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** A page's text as the view shows it: one line, without control characters, cut to `max`. */
function pageText(text: string, max: number): string {
  return cut(clean(text.replace(UNSEEN, " ")), max);
}

/**
 * The tools `page` declares (its main document), cleaned: none when it declares none, when the
 * registry is not installed there (`--settle simple`, a document loaded before it was), or
 * while it navigates.
 */
export async function listPageTools(page: Page): Promise<PageTool[]> {
  let declared: DeclaredTool[];
  try {
    declared = await inRealm(
      isolatedRealm(page.mainFrame()),
      "declaredTools",
      LISTENER_TOKEN,
      WAITS.pageToolList.ms,
    );
  } catch (error) {
    if (isNavigationError(error)) return [];
    throw error;
  }
  const tools: PageTool[] = [];
  for (const t of Array.isArray(declared) ? declared : []) {
    // Plain data of the expected types only: what a page hands over is never trusted.
    if (typeof t?.description !== "string" || typeof t.inputSchema !== "string") continue;
    if (typeof t.name !== "string" || !NAME.test(t.name)) continue;
    if (tools.some((o) => o.name === t.name)) continue;
    tools.push({
      name: t.name,
      description: pageText(t.description, DESCRIPTION_CHARS),
      inputSchema: schemaOf(t.inputSchema),
    });
  }
  return tools;
}

/**
 * Runs the current page's tool `name` with `input`, as an action: the page settles, the outcome
 * says what changed and what the tool answered (`toolAnswer`). Throws `not_found` when the page
 * declares no such tool, `invalid_args` when `input` lacks what its schema requires, `timeout`
 * when it does not answer in `WAITS.pageToolCall`.
 */
export async function runPageTool(
  env: ActionEnv,
  name: string,
  input: Record<string, unknown>,
  options: ActOptions,
): Promise<ActionOutcome> {
  const page = env.tabs.current;
  refuseWhileHeld(env.dialogs(page));
  const tools = await env.guard(page, () => listPageTools(page));
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw notDeclared(name, tools);
  checkInput(tool, input);
  return await runAction(env, options, async (now) => {
    const called = inRealm(
      isolatedRealm(now.mainFrame()),
      "callDeclaredTool",
      LISTENER_TOKEN,
      name,
      input,
      WAITS.pageToolCall.ms,
    );
    const did = `Called the page's tool "${name}"`;
    let result;
    try {
      result = await withDeadline(
        called,
        WAITS.pageToolCall.ms + WAITS.pageToolGrace.ms,
        options.signal,
      );
    } catch (error) {
      // The draft's executeTool answers null then: the navigation is the report.
      if (isNavigationError(error)) return `${did}; the page changed before it answered`;
      throw error;
    }
    if (result.state === "absent") throw notDeclared(name, []);
    if (result.state === "timeout") {
      throw new ActionError(
        "timeout",
        `The page's tool "${name}" gave no answer within ${
          WAITS.pageToolCall.ms / 1000
        } s: observe the page to see what it did before calling it again`,
      );
    }
    const text = typeof result.text === "string" ? result.text : "";
    return { did, toolAnswer: { text: pageText(text, ANSWER_CHARS), failed: result.ok !== true } };
  });
}

/** The page's schema text as an object; an empty one when it is none. */
function schemaOf(text: string): Record<string, unknown> {
  if (!text) return {};
  try {
    const schema = JSON.parse(text);
    return typeof schema === "object" && schema !== null && !Array.isArray(schema) ? schema : {};
  } catch {
    return {}; // the registry wrote it as JSON; a browser's own API may not have
  }
}

/** The arguments a tool's schema requires, by name. */
function requiredOf(tool: PageTool): string[] {
  const required = tool.inputSchema.required;
  return Array.isArray(required) ? required.filter((r) => typeof r === "string") : [];
}

/** Refuses arguments that lack what the tool's schema requires, saying how to call it. */
function checkInput(tool: PageTool, input: Record<string, unknown>): void {
  const missing = requiredOf(tool).filter((key) => input[key] === undefined);
  if (missing.length === 0) return;
  const example = Object.fromEntries(requiredOf(tool).map((key) => [key, input[key] ?? "…"]));
  throw new ActionError(
    "invalid_args",
    `The page's tool "${tool.name}" requires ${
      missing.map((m) => `"${pageText(m, 40)}"`).join(", ")
    } in args: call it again with args ${pageText(JSON.stringify(example), 200)}`,
  );
}

function notDeclared(name: string, tools: PageTool[]): ActionError {
  const shown = pageText(name, 60);
  const which = tools.length > 0
    ? `it declares ${tools.map((t) => t.name).join(", ")}`
    : "it declares none now";
  return new ActionError(
    "not_found",
    `The page declares no tool "${shown}": ${which}; observe again, its tools change with the page`,
  );
}
