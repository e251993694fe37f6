import type { KeyInput } from "puppeteer-core";

const NAMES: Record<string, KeyInput> = {
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
 * Parses a key or a combination (`Enter`, `escape`, `Control+A`) into puppeteer key names.
 *
 * @example
 * ```ts
 * parseKeys("ctrl+a"); // ["Control", "a"]
 * ```
 */
export function parseKeys(spec: string): KeyInput[] {
  const parts = spec.split("+").map((p) => p.trim()).filter((p) => p !== "");
  if (parts.length === 0) throw new RangeError(`Cannot press "${spec}": name a key such as Enter`);
  return parts.map((part) => {
    const named = NAMES[part.toLowerCase().replace(/[\s_-]/g, "")];
    if (named) return named;
    if (part.length === 1) return part as KeyInput;
    if (/^F([1-9]|1[0-2])$/i.test(part)) return part.toUpperCase() as KeyInput;
    throw new RangeError(
      `Unknown key "${part}": use Enter, Escape, Tab, arrows, PageDown, a single character, or Control+A`,
    );
  });
}
