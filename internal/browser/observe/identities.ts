import type { Frame } from "puppeteer-core";
import type { ElementIdentity } from "../../entity/mod.ts";
import { inRealm } from "../runtime/page_runtime.ts";
import { isolatedRealm } from "../runtime/realm.ts";
import type { IdentityFacts } from "../page/observe/identity.ts";

/** Where an ID points, as the observer resolves it. */
type Resolve = (id: number) => { frame: Frame; token: string; lid: number } | undefined;

/**
 * What identifies elements of the observations apart from role and name (id, test id, field
 * name, place in the page), in the order of `ids`: one call per frame, in each frame's isolated
 * world. Undefined for an element that is gone, or whose frame is.
 *
 * @example
 * ```ts
 * const [add] = await elementIdentities((id) => observer.ref(id), [12]);
 * // { id: "add", path: ["main", "div.card:2", "button.btn"] }
 * ```
 */
export async function elementIdentities(
  resolve: Resolve,
  ids: readonly number[],
): Promise<(ElementIdentity | undefined)[]> {
  const out: (ElementIdentity | undefined)[] = ids.map(() => undefined);
  const groups = new Map<string, { frame: Frame; token: string; at: number[]; lids: number[] }>();
  ids.forEach((id, at) => {
    const ref = resolve(id);
    if (!ref) return;
    let group = groups.get(ref.token);
    if (!group) groups.set(ref.token, group = { ...ref, at: [], lids: [] });
    group.at.push(at);
    group.lids.push(ref.lid);
  });
  await Promise.all([...groups.values()].map(async (group) => {
    let facts: (IdentityFacts | null)[];
    try {
      facts = await inRealm(
        isolatedRealm(group.frame),
        "elementIdentities",
        group.token,
        group.lids,
      );
    } catch {
      return; // the frame went away or navigated: its elements are gone
    }
    group.at.forEach((at, i) => {
      const fact = facts[i];
      if (fact) out[at] = fact;
    });
  }));
  return out;
}
