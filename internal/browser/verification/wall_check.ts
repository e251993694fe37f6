import type { Frame, Page } from "puppeteer-core";
import type { VerificationWall } from "../../entity/mod.ts";
import { inRealm } from "../runtime/page_runtime.ts";
import { isolatedRealm } from "../runtime/realm.ts";
import { withDeadline } from "../shared/deadline.ts";
import { frameRowFor } from "../shared/wall_policy.ts";
import type { WallSeen } from "../page/verification/walls.ts";
import { WAITS } from "../shared/budgets.ts";

/**
 * The human-verification check that blocks the tab, if any (see `page/verification/walls.ts`): looked for in
 * the top document, else in its child frames (a login form in a frame), in each one's isolated
 * world. A provider's own frame is judged from the page that holds it, never from inside (its
 * "I'm not a robot" text is no page of its own). The top document is waited for however long it
 * takes, and looked at again (twice at most) when it was replaced under the look; a child frame
 * that is too slow, detaches or navigates shows nothing now.
 *
 * @example
 * ```ts
 * const wall = await findWall(page); // { kind: "turnstile", name: "Cloudflare Turnstile", … }
 * ```
 */
export async function findWall(page: Page): Promise<VerificationWall | undefined> {
  const main = page.mainFrame();
  // The top document being replaced (a redirect) is looked at again, in its new document.
  let top = await look(main, Infinity);
  for (let again = 0; top === FAILED && again < 2; again++) top = await look(main, Infinity);
  if (top === FAILED) return undefined;
  if (top) return { ...top, url: page.url() };
  const children = page.frames().filter((f) => f !== main && !frameRowFor(f.url()));
  const seen = await Promise.all(children.map((f) => look(f, WAITS.wallFrame.ms)));
  const i = seen.findIndex((s) => s && s !== FAILED);
  if (i < 0) return undefined;
  // Its box is in the child frame's viewport, not the tab's a picture shows: left out.
  const { box: _inFrame, ...inner } = seen[i] as Omit<VerificationWall, "url">;
  return {
    ...inner,
    url: page.url(),
    where: `${inner.where} in a frame from ${originOf(children[i]!)}`,
  };
}

/** A look that could not be taken: the frame detached or navigated, or (a child) was too slow. */
const FAILED = "failed";

async function look(
  frame: Frame,
  deadlineMs: number,
): Promise<Omit<VerificationWall, "url"> | undefined | typeof FAILED> {
  let seen: WallSeen | null;
  try {
    const call = inRealm(isolatedRealm(frame), "verificationWall");
    seen = deadlineMs === Infinity ? await call : await withDeadline(call, deadlineMs);
  } catch {
    return FAILED;
  }
  if (!seen) return undefined;
  const { passes, ...rest } = seen;
  return passes ? { ...rest, passes } : rest;
}

function originOf(frame: Frame): string {
  try {
    return new URL(frame.url()).origin;
  } catch {
    return frame.url();
  }
}
