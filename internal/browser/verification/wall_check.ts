import type { Frame, Page } from "puppeteer-core";
import type { VerificationWall } from "../../entity/mod.ts";
import { inRealm } from "../runtime/page_runtime.ts";
import { isolatedRealm } from "../runtime/realm.ts";
import { withDeadline } from "../shared/deadline.ts";
import { frameRowFor } from "./policy.ts";
import type { WallSeen } from "./page/walls.ts";

/** How long one frame may take to answer; a slower one is taken to show no check. */
const FRAME_DEADLINE_MS = 1500;

/**
 * The human-verification check that blocks the tab, if any (see `page/walls.ts`): looked for in
 * the top document, else in its child frames (a login form in a frame), in each one's isolated
 * world. A provider's own frame is judged from the page that holds it, never from inside (its
 * "I'm not a robot" text is no page of its own). A frame whose document is being replaced shows
 * nothing now; the next look sees the new one.
 *
 * @example
 * ```ts
 * const wall = await findWall(page); // { kind: "turnstile", name: "Cloudflare Turnstile", … }
 * ```
 */
export async function findWall(page: Page): Promise<VerificationWall | undefined> {
  const main = page.mainFrame();
  const top = await look(main);
  if (top) return { ...top, url: page.url() };
  const children = page.frames().filter((f) => f !== main && !frameRowFor(f.url()));
  const seen = await Promise.all(children.map(look));
  const i = seen.findIndex(Boolean);
  if (i < 0) return undefined;
  const inner = seen[i]!;
  return {
    ...inner,
    url: page.url(),
    where: `${inner.where} in a frame from ${originOf(children[i]!)}`,
  };
}

async function look(frame: Frame): Promise<(Omit<VerificationWall, "url">) | undefined> {
  let seen: WallSeen | null;
  try {
    seen = await withDeadline(
      inRealm(isolatedRealm(frame), "verificationWall"),
      FRAME_DEADLINE_MS,
    );
  } catch {
    return undefined; // the frame detached, navigated or is too slow: it shows no check now
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
