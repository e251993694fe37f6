import { type ToolResult, verificationJson, type VerificationWall } from "../entity/mod.ts";
import { type BrowserPort, renderWall, type Tool, withNote } from "../tools/mod.ts";

/**
 * The MCP front-end of the hand-off to a person: the client's model never acts on a page that a
 * human-verification check blocks, and is told so with an error of its own kind,
 * `blocked_by_verification`, that says what blocks which page and that the user must solve it.
 * A call that would act on such a page (click, type, keys, scroll, …) is not run; a call that
 * lands on one (a navigation, a click that opened a challenge) answers with its result and the
 * check. Its tool's facts say which: a call that leaves the page (`effect: "leaves"`: to another
 * page or tab) is not stopped by a check on it, since leaving is one way around nothing; calls
 * that only look (`"reads"`) or work away from the page (`"elsewhere"`) are not checked.
 *
 * @example
 * ```ts
 * const result = await guardVerification(tool, browser, () => registry.dispatch(call, ctx));
 * ```
 */
export async function guardVerification(
  tool: Tool,
  browser: BrowserPort,
  act: () => Promise<ToolResult>,
): Promise<ToolResult> {
  const { effect } = tool.facts;
  if (effect === "reads" || effect === "elsewhere") return await act();
  if (effect !== "leaves") {
    const wall = await browser.verification();
    if (wall) return blocked(wall, `Nothing was done (${tool.name}).`);
  }
  const result = await act();
  if (!result.ok) return result;
  const wall = await browser.verification();
  if (!wall) return result;
  // What the action did is said first, as it was; the check is a note after it.
  const { text, notes } = withNote(result, ` ${wallSentence(wall)}`);
  return {
    ...blocked(wall, ""),
    text,
    ...(notes ? { notes } : {}),
    ...(result.outcome ? { outcome: result.outcome } : {}),
  };
}

function blocked(wall: VerificationWall, before: string): ToolResult {
  return {
    ok: false,
    kind: "blocked_by_verification",
    text: `${before} ${wallSentence(wall)}`,
    data: { verification: verificationJson(wall) },
  };
}

function wallSentence(wall: VerificationWall): string {
  return `${
    renderWall(wall)
  } (${wall.where}). It is for a person: ask the user to solve it in the browser window (a server started with --headless shows none: start it with --headed), then call again; never try to solve or get around it.`;
}
