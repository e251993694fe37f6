/**
 * What a replay does to the page around its steps: the page an older recording started on, the
 * verification check before a step, and the screenshot where it ended.
 *
 * @module
 */
import type { VerificationWall } from "../entity/mod.ts";
import { renderWall } from "../tools/mod.ts";
import { passWall, type SecretVault } from "../agent/mod.ts";
import type { TraceStep } from "./trace_lines.ts";
import type { ReplayOptions, ReplayResult } from "./replay_types.ts";

/**
 * The human-verification check that blocks the page before `recorded` runs, found as the agent
 * finds one ({@link passWall}: one that often passes by itself is given a few seconds; nobody is
 * asked, as nobody is there), as the replay's end: what blocks which page, and a screenshot of it.
 * Undefined when none does, or the replay was stopped meanwhile (the caller sees the signal).
 */
export async function wallBefore(
  options: ReplayOptions,
  vault: SecretVault,
  recorded: TraceStep,
): Promise<Pick<ReplayResult, "message" | "verification" | "screenshot"> | undefined> {
  let wall: VerificationWall | undefined;
  try {
    wall = await passWall({
      // What it names (the page's address) is masked as the rest of the replay's words are.
      browser: { verification: async () => vault.maskDeep(await options.browser.verification()) },
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal.aborted) return undefined;
    throw error;
  }
  if (!wall) return undefined;
  const screenshot = await saveScreenshot(options, recorded.step, "blocked");
  const said = renderWall(wall);
  return {
    message: `Step ${recorded.step} (${recorded.call.name}) was not run: ${
      said.charAt(0).toLowerCase() + said.slice(1)
    } (${wall.where}); a person must solve it (in a --headed run with the same --session), then replay again${
      screenshot ? `; see ${screenshot}` : ""
    }`,
    verification: wall,
    ...(screenshot ? { screenshot } : {}),
  };
}

/** Opens the page an older recording started on, reported as step 0. */
export async function openStart(
  options: ReplayOptions,
  url: string,
): Promise<{ ok: true } | { ok: false; message: string; screenshot?: string }> {
  const call = {
    name: "navigate",
    args: { url },
    reasoning: "Open the page the recording started on",
  };
  const t0 = performance.now();
  const result = await options.registry.dispatch(call, {
    browser: options.browser,
    signal: options.signal,
  });
  options.onStep?.({ step: 0, call, result, ms: Math.round(performance.now() - t0) });
  if (result.ok) return { ok: true };
  const screenshot = await saveScreenshot(options, 0);
  return {
    ok: false,
    message: `Cannot open ${url}, the page the recording started on: ${result.text}${
      screenshot ? `; see ${screenshot}` : ""
    }`,
    ...(screenshot ? { screenshot } : {}),
  };
}

/**
 * Saves the page where the replay ended as `replay-<ended>-step-NNN.png`: `failed` (a step that
 * failed or whose target is not surely there), `blocked` (a verification check a person must
 * solve). Undefined when the page cannot be pictured.
 */
export async function saveScreenshot(
  options: ReplayOptions,
  step: number,
  ended: "failed" | "blocked" = "failed",
): Promise<string | undefined> {
  const dir = options.outDir ?? options.recording.dir;
  const path = `${dir}/replay-${ended}-step-${String(step).padStart(3, "0")}.png`;
  try {
    await Deno.mkdir(dir, { recursive: true });
    await options.browser.screenshot({
      format: "png",
      hideFields: Object.keys(options.secrets ?? {}).length > 0,
      path,
    });
    return path;
  } catch {
    // A crashed page cannot be pictured; the message still says what failed.
    return undefined;
  }
}
