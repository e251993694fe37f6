import type { ElementHandle, Frame, JSHandle, Realm } from "puppeteer-core";
import { BrowserError } from "../entity/mod.ts";

/**
 * The frame's isolated world: same DOM, but its own globals, untouched by page scripts.
 * puppeteer marks `isolatedRealm()` internal, so the version is pinned and a test covers it.
 */
export function isolatedRealm(frame: Frame): Realm {
  const f = frame as unknown as { isolatedRealm?: () => Realm };
  if (typeof f.isolatedRealm !== "function") {
    throw new BrowserError(
      "This puppeteer-core has no isolated realm: keep the version pinned in deno.json",
    );
  }
  return f.isolatedRealm();
}

/**
 * The world an element handle lives in, where functions on it run. puppeteer marks a handle's
 * `realm` internal, so the version is pinned and the browser tests cover it.
 */
export function realmOf(handle: ElementHandle<Element>): Realm {
  const realm = (handle as unknown as { realm?: Realm }).realm;
  if (!realm) {
    throw new BrowserError(
      "This puppeteer-core gives no realm of an element handle: keep the version pinned in deno.json",
    );
  }
  return realm;
}

/**
 * A handle to the same object in `realm` (another world of the same frame); the caller disposes
 * of it. puppeteer marks `adoptHandle` internal, so the version is pinned and tests cover it.
 */
export function adoptHandle<T extends JSHandle<unknown>>(realm: Realm, handle: T): Promise<T> {
  return (realm as unknown as { adoptHandle(handle: T): Promise<T> }).adoptHandle(handle);
}
