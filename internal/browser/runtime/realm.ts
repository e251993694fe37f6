import type { CDPSession, ElementHandle, Frame, JSHandle, Realm } from "puppeteer-core";
import { BrowserError } from "../../entity/mod.ts";

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

/**
 * The name of puppeteer's isolated world (the one {@link isolatedRealm} returns) in every
 * document: `"__puppeteer_utility_world__"` and the pinned puppeteer-core version. puppeteer marks
 * it internal, so the version is pinned and a test covers it (a script registered for a world of
 * another name runs where nobody looks, and the runtime is then installed on first use).
 */
export const ISOLATED_WORLD_NAME = "__puppeteer_utility_world__25.16.0";

/**
 * The CDP session puppeteer drives `frame` with (its page's, or an out-of-process frame's own).
 * Commands that must act on puppeteer's own isolated worlds go through it: worlds are per
 * session, so another session's world of the same name is another world. puppeteer marks
 * `client` internal, so the version is pinned and a test covers it.
 */
export function frameSession(frame: Frame): CDPSession {
  const client = (frame as unknown as { client?: CDPSession }).client;
  if (!client) {
    throw new BrowserError(
      "This puppeteer-core gives no session of a frame: keep the version pinned in deno.json",
    );
  }
  return client;
}
