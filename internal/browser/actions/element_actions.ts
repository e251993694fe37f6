import { resolve } from "node:path";
import type { ElementHandle, KeyInput, Page } from "puppeteer-core";
import { ActionError } from "../../entity/mod.ts";
import type { Did } from "./action_runner.ts";
import { onLadder, type PointerEnv } from "./actionability.ts";
import { clickElement } from "./pointer_verbs.ts";
import { perform, type Target } from "./pipeline.ts";
import { handleOnElement, inRealm, onElement } from "../runtime/page_runtime.ts";
import { isolatedRealm } from "../runtime/realm.ts";
import { parseKeys } from "./keys.ts";
import { cut } from "../shared/text.ts";
import { closingInput } from "../tabs/self_closing.ts";
import { WAITS } from "../shared/budgets.ts";

/** Texts up to this long are typed key by key (autocompletes listen to keys); longer ones are inserted. */
const KEY_BY_KEY_MAX = 60;

/** Options of {@link typeInto}. */
export interface TypeOptions {
  /** Replace the field's text (default) or add to its end. */
  clear: boolean;
  pressEnter: boolean;
  /** Type key by key whatever the length (never insert the text at once). */
  keyByKey?: boolean;
}

/**
 * Types into an input, a textarea (new lines included), a contenteditable editor, or sets a
 * date/time/colour field's value as its picker would. Returns what it did.
 *
 * @example
 * ```ts
 * await typeInto(page, { el, id: 3 }, "hello", { clear: true, pressEnter: false }, { banners, capMs });
 * ```
 */
export async function typeInto(
  page: Page,
  target: Target,
  text: string,
  options: TypeOptions,
  env: PointerEnv,
): Promise<string> {
  const { el } = target;
  await onElement(el, "centreElement", false);
  // Keys sent to a field that is disabled, read-only or under a popup go nowhere: refused.
  return await perform(
    page,
    target,
    "type into",
    env,
    () => typeReady(page, target, text, options, env),
  );
}

async function typeReady(
  page: Page,
  { el, id }: Target,
  text: string,
  options: TypeOptions,
  env: PointerEnv,
): Promise<string> {
  const field = await onElement(el, "prepareField", options.clear);
  if (field.missed) {
    throw new ActionError(
      "no_effect",
      `Cannot type into [${id}]: ${field.missed}; nothing was typed`,
    );
  }
  let { kind, hadText } = field;
  // What goes into a password field is not said back (an MCP result, a log would hold it).
  const typed = field.secret
    ? `${[...text].length} characters (a password, not repeated)`
    : JSON.stringify(cut(text.replace(/\s+/g, " "), 80));
  const did = `Typed ${typed} into [${id}]`;
  if (kind === "other") {
    // A wrapper around the real field: click it, then type where the focus went.
    await clickElement(page, { el, id }, env);
    kind = "keyboard";
    hadText = false;
  }
  if (kind === "value" && options.keyByKey) {
    // A picker takes keys too: select all, delete, then type as a person would.
    if (options.clear) await press(page, "Control+A");
    if (options.clear) await page.keyboard.press("Backspace");
    kind = "keyboard";
    hadText = false;
  }
  if (kind === "value") {
    const now = await onElement(el, "setFieldValue", text);
    if (now !== text) {
      // Not the model's mistake for sure: typing it key by key may still work (recovery).
      throw new ActionError(
        "failed",
        `Cannot set [${id}] to ${JSON.stringify(text)}: the field refused it` +
          ` (dates are written 2024-05-31, times 13:45, colours #ff0000)`,
      );
    }
    return options.pressEnter ? (await press(page, "Enter"), `${did} and pressed Enter`) : did;
  }
  const kb = page.keyboard;
  // A key whose handler closes the tab (Enter in a pop-up's form) is not answered.
  await closingInput(page, async () => {
    if (options.clear && hadText) await kb.press("Backspace");
    const lines = text.split(/\r?\n/);
    for (const [i, line] of lines.entries()) {
      if (i > 0) {
        // A new line in a textarea or editor; Shift+Enter would not submit a chat box either.
        if (kind === "editable") await kb.press("Enter");
        else await kb.sendCharacter("\n");
      }
      if (!line) continue;
      if (text.length <= KEY_BY_KEY_MAX || options.keyByKey) await kb.type(line);
      else await kb.sendCharacter(line);
    }
    if (options.pressEnter) await kb.press("Enter");
  });
  return options.pressEnter ? `${did} and pressed Enter` : did;
}

/**
 * Types where the keyboard focus is, with no element named: a focused field, or the page itself
 * (a terminal-like page that listens to keys on the document). Says where the text went.
 *
 * @example
 * ```ts
 * await typeFocused(page, "rm file.gif", { clear: false, pressEnter: true });
 * // "Typed "rm file.gif" on the page itself (no element has focus) and pressed Enter"
 * ```
 */
export async function typeFocused(page: Page, text: string, options: TypeOptions): Promise<Did> {
  const realm = isolatedRealm(page.mainFrame());
  const focus = await inRealm(realm, "focusedState").catch(() => ({ what: "", state: "" }));
  const kb = page.keyboard;
  await closingInput(page, async () => {
    for (const [i, line] of text.split(/\r?\n/).entries()) {
      if (i > 0) await kb.press("Enter");
      if (line) await kb.type(line);
    }
    if (options.pressEnter) await kb.press("Enter");
  });
  const where = focus.what
    ? `into ${focus.what} (it had the focus)`
    : "on the page itself (no element has focus: the page got the keys)";
  const did = `Typed ${JSON.stringify(cut(text.replace(/\s+/g, " "), 80))} ${where}`;
  return { did: options.pressEnter ? `${did} and pressed Enter` : did, control: true };
}

/**
 * Chooses an option: in a native `<select>` by visible text or value; in a custom listbox or
 * combobox by opening it with a click and clicking the option. Both go through the action
 * pipeline (a disabled or covered list is refused); an option not there yet is looked for again
 * on the ladder of waits, then the options are listed.
 */
export async function selectOption(
  page: Page,
  target: Target,
  option: string,
  env: PointerEnv,
): Promise<Did> {
  const { el, id } = target;
  if ((await onElement(el, "controlKind")) === "select") {
    return await perform(page, target, "select in", env, async () => {
      let seen: string[] = [];
      const r = await onLadder(env, async () => {
        const r = await onElement(el, "chooseNativeOption", option);
        return r.ok ? r : (seen = r.options, undefined);
      });
      if (r === undefined) throw new ActionError("not_found", noOption(id, option, seen));
      const text = JSON.stringify(r.text);
      if (!r.chosen) return { did: `Selected ${text} in [${id}]` };
      const all = r.chosen.map((t) => JSON.stringify(t)).join(", ");
      const added = r.already
        ? `${text} was already among the choices of [${id}]`
        : `Added ${text} to the choices of [${id}]`;
      return {
        did: `${added}, a list that keeps several (select adds, it never removes one); ` +
          `chosen now: ${all}`,
      };
    });
  }
  // The list itself first: a disabled or covered list is not operated, open or not.
  await perform(page, target, "select in", env, () => Promise.resolve());
  let pick = await optionHandle(el, option);
  const opened = !pick;
  if (!pick) {
    await clickElement(page, target, env);
    // Options often render a frame or two after the click, or after a fetch.
    pick = await onLadder(env, () => optionHandle(el, option).catch(() => undefined));
  }
  if (!pick) {
    const seen = await onElement(el, "lastSeenOptions");
    throw new ActionError("not_found", noOption(id, option, seen));
  }
  try {
    const label = await onElement(pick, "optionText");
    await clickElement(page, { el: pick, id }, env);
    return {
      did: `${opened ? "Opened [" + id + "] and chose" : "Chose"} ${JSON.stringify(label)}`,
    };
  } finally {
    await pick.dispose();
  }
}

async function optionHandle(
  el: ElementHandle<Element>,
  option: string,
): Promise<ElementHandle<Element> | undefined> {
  return (await handleOnElement(el, "findCustomOption", option)) ?? undefined;
}

function noOption(id: number, option: string, options: string[]): string {
  const list = options.length > 0
    ? `options are ${options.slice(0, 20).map((o) => JSON.stringify(o)).join(", ")}${
      options.length > 20 ? ", …" : ""
    }`
    : "it shows no options";
  return `No option ${JSON.stringify(option)} in [${id}]: ${list}`;
}

/**
 * Puts a file into a file input: the input itself, the one a label or drop zone stands for,
 * or the file chooser a button opens. A missing file is a clear error.
 */
export async function uploadFile(
  page: Page,
  target: Target,
  path: string,
  env: PointerEnv,
): Promise<string> {
  const { el, id } = target;
  const file = resolve(path);
  try {
    const info = await Deno.stat(file);
    if (!info.isFile) {
      throw new ActionError("invalid_args", `Cannot upload "${path}": it is not a file`);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new ActionError("not_found", `Cannot upload "${path}": no such file`);
    }
    throw error;
  }
  const name = file.split(/[\\/]/).pop();
  if ((await onElement(el, "controlKind")) === "file") {
    // A file input a person presses or drops onto: checked as any pointer verb first.
    await perform(page, target, "upload into", env, () => Promise.resolve());
    await (el as ElementHandle<HTMLInputElement>).uploadFile(file);
    return `Put ${JSON.stringify(name)} into [${id}]`;
  }
  await perform(page, target, "upload into", env, () => Promise.resolve());
  const input = await handleOnElement(el, "fileInputFor");
  const inputEl = input as ElementHandle<HTMLInputElement> | null;
  if (inputEl) {
    try {
      await inputEl.uploadFile(file);
      return `Put ${JSON.stringify(name)} into the file input of [${id}]`;
    } finally {
      await inputEl.dispose();
    }
  }
  const chooser = page.waitForFileChooser({ timeout: WAITS.fileChooser.ms });
  chooser.catch(() => {/* reported below */});
  await clickElement(page, target, env);
  try {
    await (await chooser).accept([file]);
  } catch {
    throw new ActionError(
      "failed",
      `Clicking [${id}] opened no file chooser: give the ID of a file input or its upload button`,
    );
  }
  return `Clicked [${id}] and chose ${JSON.stringify(name)} in the file chooser`;
}

/**
 * Presses a key or a combination such as `Control+A` on the focused element. Says on what, and
 * the state a person sees when the key changed it: `Pressed Space on <input type=checkbox>
 * "I agree": it is now checked`.
 */
export async function press(page: Page, spec: string): Promise<Did> {
  // parseKeys returns only names of the browser's key table (or single characters).
  const keys = parseKeys(spec) as KeyInput[];
  const realm = isolatedRealm(page.mainFrame());
  const focused = () => inRealm(realm, "focusedState").catch(() => ({ what: "", state: "" }));
  const before = await focused();
  const kb = page.keyboard;
  await closingInput(page, async () => {
    for (const key of keys.slice(0, -1)) await kb.down(key);
    await kb.press(keys[keys.length - 1]!);
    for (const key of keys.slice(0, -1).reverse()) await kb.up(key);
  });
  const after = await focused();
  const on = before.what ? ` on ${before.what}` : " on the page itself (no element had focus)";
  const now = after.what === before.what && after.state !== before.state && after.state
    ? `: it is now ${after.state}`
    : "";
  return { did: `Pressed ${spec}${on}${now}`, control: before.what !== "" };
}
