/// <reference lib="dom" />
/**
 * The focused element of a document, as a screen reader names it (for focus_next/focus_prev).
 *
 * @module
 */
import { deepActiveElement } from "./dom.ts";
import { accessibleName } from "./names.ts";
import { implicitRole } from "./roles.ts";
import { cut } from "./text.ts";

/** The focused element of this document (through open shadow roots), as a screen reader names it. */
export interface FocusedInfo {
  /** Explicit or implicit ARIA role, e.g. `link`, `textbox`; the tag name when it has none. */
  role: string;
  tag: string;
  label: string;
  /** The focus is in a child frame of this document. */
  inFrame: boolean;
}

/** Reads the focused element; undefined when this document does not hold the focus. */
export function focusedElementInfo(): FocusedInfo | undefined {
  if (!document.hasFocus()) return undefined;
  const el = deepActiveElement();
  if (!el) return undefined;
  const tag = el.localName;
  const role = implicitRole(el);
  return {
    role: role === "generic" ? tag : role,
    tag,
    label: cut(accessibleName(el), 100),
    inFrame: tag === "iframe" || tag === "frame",
  };
}
