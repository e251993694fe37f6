/**
 * The bridge to the in-page runtime (`runtime/`, bundled into `runtime_bundle.ts`): calls its
 * functions by name in a frame's isolated world or on an element, typed from the runtime's API
 * table, so a wrong name, argument or result type is a compile error. Arguments travel as
 * `evaluate` arguments (element handles included); no value is ever spliced into source.
 *
 * The runtime is installed when a document is created, in puppeteer's isolated world of each
 * page's frames ({@link preloadRuntime}), so the first call after a navigation finds it there.
 * Where it is not (the document that was open before, an out-of-process frame that loaded before
 * its session was set up, a world puppeteer recreated), a call comes back marked missing; the
 * bridge then evaluates the bundled source in that world and calls again, once.
 *
 * @example
 * ```ts
 * const walk = await inRealm(isolatedRealm(frame), "walkFrame", options);
 * const ready = await onElement(el, "readiness", { attempt: 0, typing: false });
 * ```
 *
 * @module
 */
import type { CDPSession, ElementHandle, Frame, JSHandle, Page, Realm } from "puppeteer-core";
import { PageChangedError } from "./page_changed.ts";
import { adoptHandle, frameSession, ISOLATED_WORLD_NAME, isolatedRealm, realmOf } from "./realm.ts";
import type { RuntimeApi } from "../page/entry.ts";
import { RUNTIME_GLOBAL } from "../shared/runtime_global.ts";
import { RUNTIME_SOURCE, RUNTIME_VERSION } from "./runtime_bundle.ts";

export type { BannerClosing } from "../page/banners/banners.ts";
export type { Needs, Readiness } from "../page/actions/actionable.ts";
export type { ElementPoint, Receiver } from "../page/actions/point.ts";
export type { ControlState, StateChange } from "../page/effects/effect_states.ts";
export type { DomChanges } from "../page/effects/effect_count.ts";
export type { EffectSnapshot, TargetState } from "../page/measure.ts";
export type { FieldKind } from "../page/actions/fields.ts";
export type { FocusedInfo } from "../page/observe/focus.ts";
export type { PageSettle } from "../page/settle/settle_state.ts";
export type { ScrollRequest, ScrollResult } from "../page/actions/scroll.ts";

type Api = RuntimeApi;
type Name = keyof Api;
type Result<K extends Name> = Awaited<ReturnType<Api[K]>>;

/** An argument as the Deno side gives it: an element as a handle in the same world. */
type Arg<T> = T extends Element ? ElementHandle<Element> : T;
type Args<P extends readonly unknown[]> = { [I in keyof P]: Arg<P[I]> };
/** The parameters after the first (the element of an element function). */
type Rest<K extends Name> = Parameters<Api[K]> extends [unknown, ...infer R] ? R : never;

/** Functions that return elements: called for a handle. */
type HandleName = { [K in Name]: Result<K> extends Element | null ? K : never }[Name];
/** Functions that return data: called for the value. */
type ValueName = Exclude<Name, HandleName>;
/** Functions whose first parameter is an element (or may be). */
type ElementName = {
  [K in Name]: Parameters<Api[K]> extends [infer E, ...unknown[]] ? Element extends E ? K : never
    : never;
}[Name];

/**
 * Calls the runtime's function `name` in `realm` (a frame's isolated world, `isolatedRealm`)
 * and returns its result by value; installs the runtime there first when it is missing.
 */
export async function inRealm<K extends ValueName>(
  realm: Realm,
  name: K,
  ...args: Args<Parameters<Api[K]>>
): Promise<Result<K>> {
  const call = () =>
    realm.evaluate(callInPage, RUNTIME_GLOBAL, RUNTIME_VERSION, name, ...args as unknown[]);
  let answer = await call();
  if (answer.missing) {
    await install(realm);
    answer = await call();
    if (answer.missing) throw notInstalled(name);
  }
  return answer.value as Result<K>;
}

/**
 * Calls the runtime's function `name` on an element, in its frame's isolated world (a handle
 * from the page's own world is adopted there for the call).
 */
export function onElement<K extends ValueName & ElementName>(
  el: ElementHandle<Element>,
  name: K,
  ...args: Args<Rest<K>>
): Promise<Result<K>> {
  return isolated(el, (realm, own) => {
    const all = [own, ...args] as unknown as Args<Parameters<Api[K]>>;
    return inRealm(realm, name, ...all);
  });
}

/**
 * Calls a runtime function that returns an element, in `realm`; returns a handle to it, or
 * null when it returned none.
 */
export async function handleInRealm<K extends HandleName>(
  realm: Realm,
  name: K,
  ...args: Args<Parameters<Api[K]>>
): Promise<ElementHandle<Element> | null> {
  const call = () =>
    realm.evaluateHandle(
      handleInPage,
      RUNTIME_GLOBAL,
      RUNTIME_VERSION,
      MISSING,
      name,
      ...args as unknown[],
    );
  let handle = await call();
  if (await isMissing(handle)) {
    await install(realm);
    handle = await call();
    if (await isMissing(handle)) throw notInstalled(name);
  }
  const el = handle.asElement();
  if (el) return el as ElementHandle<Element>;
  await handle.dispose();
  return null;
}

/**
 * Calls a runtime function that returns an element on an element (see {@link handleInRealm});
 * the handle it returns lives in the isolated world.
 */
export function handleOnElement<K extends HandleName & ElementName>(
  el: ElementHandle<Element>,
  name: K,
  ...args: Args<Rest<K>>
): Promise<ElementHandle<Element> | null> {
  return isolated(el, (realm, own) => {
    const all = [own, ...args] as unknown as Args<Parameters<Api[K]>>;
    return handleInRealm(realm, name, ...all);
  });
}

/**
 * Runs `use` with `el` in its frame's isolated world. A handle from the page's own world (a
 * frame's owner element) is adopted there for the call, so the runtime is never installed
 * where page scripts can see it.
 */
async function isolated<T>(
  el: ElementHandle<Element>,
  use: (realm: Realm, el: ElementHandle<Element>) => Promise<T>,
): Promise<T> {
  const realm = isolatedRealm(el.frame);
  if (realmOf(el) === realm) return await use(realm, el);
  const adopted = await adoptHandle(realm, el);
  try {
    return await use(realm, adopted);
  } finally {
    await adopted.dispose();
  }
}

/** What {@link handleInPage} returns when the runtime is missing (no element is a string). */
const MISSING = "browser-agent: the runtime is missing";

async function isMissing(handle: JSHandle<unknown>): Promise<boolean> {
  if (handle.asElement()) return false;
  if ((await handle.jsonValue()) !== MISSING) return false;
  await handle.dispose();
  return true;
}

/** Sessions the runtime is registered with for new documents (a session lives for its target). */
const preloaded = new WeakSet<CDPSession>();

/**
 * Installs the runtime in every document `page` creates from now on, as the document is created
 * (before the page's own scripts run), in puppeteer's isolated world: its main frame's and
 * same-process frames' through the page's session, out-of-process frames' through theirs as
 * they attach. The current document is left to the on-demand install. Resolves once the page's
 * own session has it.
 */
export async function preloadRuntime(page: Page): Promise<void> {
  page.on("frameattached", (frame: Frame) => {
    preloadIn(frame).catch(() => {/* the frame went away; its documents install on demand */});
  });
  await preloadIn(page.mainFrame());
}

async function preloadIn(frame: Frame): Promise<void> {
  const session = frameSession(frame);
  if (preloaded.has(session)) return;
  preloaded.add(session);
  await session.send("Page.addScriptToEvaluateOnNewDocument", {
    source: RUNTIME_SOURCE,
    worldName: ISOLATED_WORLD_NAME,
  });
}

/** Installs the runtime in `realm`; a world that has this version already keeps its state. */
async function install(realm: Realm): Promise<void> {
  await realm.evaluate(RUNTIME_SOURCE);
}

/** A call that finds no runtime right after installing it: a new document took the old's place. */
function notInstalled(name: string): Error {
  return new PageChangedError(
    `Cannot call "${name}" in the page: its document was replaced while the runtime was installed`,
  );
}

/** The runtime as the bridge sees it on the page's global. */
type Installed = { version: string; api: Record<string, (...args: unknown[]) => unknown> };

/**
 * Runs in the page (serialised on its own: it must not use anything from outside its body):
 * calls the runtime's function by name, or answers that this version of the runtime is missing.
 */
async function callInPage(
  global: string,
  version: string,
  name: string,
  ...args: unknown[]
): Promise<{ value?: unknown; missing?: true }> {
  const rt = (globalThis as unknown as Record<string, Installed | undefined>)[global];
  if (!rt || rt.version !== version) return { missing: true };
  return { value: await rt.api[name]!(...args) };
}

/** Like {@link callInPage}, for a handle: answers `missing` when the runtime is missing. */
function handleInPage(
  global: string,
  version: string,
  missing: string,
  name: string,
  ...args: unknown[]
): unknown {
  const rt = (globalThis as unknown as Record<string, Installed | undefined>)[global];
  if (!rt || rt.version !== version) return missing;
  return rt.api[name]!(...args);
}
