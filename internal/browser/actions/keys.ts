/** A key name as the browser knows it (`Enter`, `Control`, `a`). */
type KeyName = string;
import { ActionError } from "../../entity/mod.ts";

const NAMES: Record<string, KeyName> = {
  enter: "Enter",
  return: "Enter",
  escape: "Escape",
  esc: "Escape",
  tab: "Tab",
  space: "Space",
  backspace: "Backspace",
  delete: "Delete",
  home: "Home",
  end: "End",
  pageup: "PageUp",
  pagedown: "PageDown",
  up: "ArrowUp",
  down: "ArrowDown",
  left: "ArrowLeft",
  right: "ArrowRight",
  arrowup: "ArrowUp",
  arrowdown: "ArrowDown",
  arrowleft: "ArrowLeft",
  arrowright: "ArrowRight",
  control: "Control",
  ctrl: "Control",
  shift: "Shift",
  alt: "Alt",
  meta: "Meta",
  cmd: "Meta",
};

/**
 * Parses a key or a combination (`Enter`, `escape`, `Control+A`) into the browser's key names.
 *
 * @example
 * ```ts
 * parseKeys("ctrl+a"); // ["Control", "a"]
 * ```
 */
export function parseKeys(spec: string): KeyName[] {
  const parts = spec.split("+").map((p) => p.trim()).filter((p) => p !== "");
  if (parts.length === 0) {
    throw new ActionError("invalid_args", `Cannot press "${spec}": name a key such as Enter`);
  }
  return parts.map((part) => {
    const named = NAMES[part.toLowerCase().replace(/[\s_-]/g, "")];
    if (named) return named;
    if (part.length === 1) return part as KeyName;
    if (/^F([1-9]|1[0-2])$/i.test(part)) return part.toUpperCase() as KeyName;
    throw new ActionError(
      "invalid_args",
      `Unknown key "${part}": use Enter, Escape, Tab, arrows, PageDown, a single character, or Control+A`,
    );
  });
}
