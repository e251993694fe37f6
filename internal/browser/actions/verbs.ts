/**
 * What each verb needs of its element before it acts, one row per verb with its reason: the
 * table the action pipeline (`pipeline.ts`) reads, as Playwright's verbs declare their states for
 * `_retryAction`. A verb that is not a row here cannot be performed.
 *
 * @module
 */
import type { Needs } from "../runtime/page_runtime.ts";

/** Every element verb: what a person does to one element. */
export type VerbName =
  | "click"
  | "double-click"
  | "right-click"
  | "hover"
  | "drag"
  | "type into"
  | "select in"
  | "upload into"
  | "press a key on"
  | "select text in"
  | "scroll to";

/** A verb's row: the states it needs, and why. */
export interface VerbRow {
  needs: Needs;
  /** Check again with the pointer over it that the press still lands (hovering may cover it). */
  recheck: boolean;
  reason: string;
}

const POINTER: Needs = { enabled: true, editable: false, visible: true, hit: "hit" };
const KEYS: Needs = { enabled: true, editable: false, visible: true, hit: "layer" };

/** The verbs and what each needs. */
export const VERBS: Readonly<Record<VerbName, VerbRow>> = Object.freeze({
  "click": {
    needs: POINTER,
    recheck: true,
    reason: "a press lands on what is drawn at its point, and a disabled control ignores it",
  },
  "double-click": {
    needs: POINTER,
    recheck: true,
    reason: "two presses at one point: the same checks as a click",
  },
  "right-click": {
    needs: POINTER,
    recheck: true,
    reason: "the context menu opens for what is drawn at the point pressed",
  },
  "hover": {
    needs: POINTER,
    recheck: false,
    reason: "the pointer rests on what is drawn there; a disabled item opens nothing",
  },
  "drag": {
    needs: POINTER,
    recheck: true,
    reason: "the press that picks it up must land on it; a disabled card does not move",
  },
  "type into": {
    needs: { enabled: true, editable: true, visible: true, hit: "layer" },
    recheck: false,
    reason: "keys reach a focused field under a placeholder, but not one under a popup, " +
      "nor a disabled or read-only one",
  },
  "select in": {
    needs: POINTER,
    recheck: true,
    reason: "a person opens the list by pressing on it; a disabled list is not even sent",
  },
  "upload into": {
    needs: POINTER,
    recheck: true,
    reason: "a person presses the file input or its button, or drops a file onto it",
  },
  "press a key on": {
    needs: KEYS,
    recheck: false,
    reason: "the element takes the focus first: keys reach it unless a popup covers it",
  },
  "select text in": {
    needs: POINTER,
    recheck: false,
    reason: "text is selected by pointing at it: it must show and not be covered; " +
      "a disabled field's text cannot be selected",
  },
  "scroll to": {
    needs: { enabled: false, editable: false, visible: false, hit: "none" },
    recheck: false,
    reason: "anything in the page can be scrolled to, disabled or covered",
  },
});
