/**
 * What an action did, as data: the browser reports it, one renderer per audience turns it into
 * words (the model's sentence, the MCP client's structured content, the trace's fields).
 *
 * @module
 */

/**
 * Why a tool call failed, for code that branches on it (recovery, replay, MCP, the report):
 * - `unknown_tool`: no tool of that name;
 * - `invalid_args`: the arguments do not fit the tool's schema, or make no sense together;
 * - `unknown_element`: the ID was never given out (the model made it up);
 * - `gone`: the element was there but left the page (the page re-rendered it);
 * - `wrong_tab`: the element is in another tab;
 * - `not_found`: what the call names is not there (an option, a tab, a file, a match);
 * - `no_effect`: the action cannot do anything here (scroll at the bottom, no earlier page);
 * - `blocked`: a rule refused it (allowed domains), or the page holds a `prompt()` open that must
 *   be answered first;
 * - `held`: the safety policy holds it until someone confirms;
 * - `declined`: the user said no;
 * - `timeout`: what was waited for did not happen in time;
 * - `blocked_by_verification`: a human-verification check (a CAPTCHA, Cloudflare's "Just a
 *   moment…") blocks the page: a person must solve it; nothing tries to;
 * - `failed`: anything else (the browser's own reason is in the message).
 */
export type ErrorKind =
  | "unknown_tool"
  | "invalid_args"
  | "unknown_element"
  | "gone"
  | "wrong_tab"
  | "not_found"
  | "no_effect"
  | "blocked"
  | "held"
  | "declined"
  | "timeout"
  | "blocked_by_verification"
  | "failed";

/**
 * An error that knows its {@link ErrorKind}: thrown by the browser and the tools, turned into a
 * failed result by the registry's `dispatch` with the kind kept.
 *
 * @example
 * ```ts
 * throw new ActionError("gone", "Element [42] is gone: the page changed, observe again");
 * ```
 */
export class ActionError extends Error {
  readonly kind: ErrorKind;
  constructor(kind: ErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ActionError";
    this.kind = kind;
  }
}

/** What changed on the page because of an action, one fact each. */
export type Effect =
  /**
   * The tab shows another URL, or (`reloaded`) a new document at the same URL: a form posted and
   * redirected back, a reload.
   */
  | { kind: "navigated"; url: string; title: string; reloaded?: boolean }
  /** Same URL, new title. */
  | { kind: "title"; title: string }
  /** The element acted on changed (or kept) a state a person sees. */
  | { kind: "target"; id: number; change: TargetChange }
  /** Another control the model was shown changed its value or state (a spinner's field). */
  | { kind: "control"; id: number; change: TargetChange; inFrame?: boolean }
  /**
   * A scroll brought this into view: the first new lines (`samples`), headings first
   * (`headings`).
   */
  | { kind: "revealed"; samples: string[]; headings: string[] }
  /**
   * Things the model sees appeared: controls and elements with text of their own (`count`
   * capped at 500: `capped`); `headings` new headings, `samples` the first new lines of text.
   */
  | {
    kind: "added";
    count: number;
    capped: boolean;
    samples: string[];
    headings?: string[];
    inFrame?: boolean;
  }
  | { kind: "removed"; count: number; inFrame?: boolean }
  /**
   * The visible text changed while nothing came or went: elements that now read otherwise
   * (`changes`), new lines (`lines`), lines gone (`gone`), or text that took or lost a format
   * (`styled`: "word" is now bold).
   */
  | {
    kind: "text";
    changes?: { from: string; to: string }[];
    lines?: string[];
    gone?: string[];
    styled?: { text: string; how: string; now: boolean }[];
    inFrame?: boolean;
  }
  /** The keyboard focus moved to another element, described as `<input> "Email"`. */
  | { kind: "focus"; to: string; inFrame?: boolean }
  | { kind: "scrolled"; direction: "up" | "down"; inFrame?: boolean }
  /** The tab now current (after a tab closed). */
  | { kind: "tab"; index: number; url: string; title: string }
  /**
   * An element of the model's last view reads otherwise in the next: states it took (`added`)
   * or lost, and its text or value as each view read it (`from`, `to`).
   */
  | {
    kind: "element";
    id: number;
    name: string;
    added: string[];
    removed: string[];
    from?: string;
    to?: string;
    /** Attributes its line shows now and did not (`scrollable="more above"`). */
    attrs?: string[];
    /** It now shows under another line of both views (`to`) than before (`from`). */
    moved?: { from: string; to: string };
  }
  /**
   * Elements the next view lists and the last did not (`shown`, e.g. `[4] "Save"`), the reverse
   * (`hidden`), the same control drawn again under a new number (`redrawn`), and how many more
   * differences the report leaves to the view (`more`).
   */
  | {
    kind: "listed";
    shown: string[];
    hidden: string[];
    redrawn: { from: number; to: number }[];
    more: number;
  }
  /** Text that appeared where the view does not reach (below the fold, a closed list). */
  | { kind: "outside"; samples: string[] };

/** How the element acted on changed. */
export type TargetChange =
  | { state: "left" }
  | { state: "hidden" }
  /** `checked`/`unchecked`; `changed` false when it kept that state (a click that did nothing). */
  | { state: "checked" | "unchecked"; changed: boolean }
  | {
    state:
      | "expanded"
      | "collapsed"
      | "selected"
      | "not selected"
      | "pressed"
      | "not pressed"
      | "current";
  }
  | { state: "value"; value: string }
  /** Its class or style changed and so did its colours (a choice that turns green when picked). */
  | { state: "restyled" };

/**
 * Why settling after an action ended: the page was quiet for `quietMs` after its last change;
 * the action's request to `url` finished (then quiet); work it set off (`what`: a timer, an
 * animation) ended or a busy sign (`what`: `aria-busy`) went (then quiet); or the cap ended it,
 * while waiting on `waitingOn` when known.
 */
export type SettleReason =
  | { kind: "quiet"; quietMs: number }
  | { kind: "request"; url: string; quietMs: number }
  | { kind: "work" | "busy"; what: string; quietMs: number }
  /** `loading`: `waitingOn` is a page the action asked for that had not answered. */
  | { kind: "capped"; waitingOn?: string; loading?: boolean };

/**
 * A dialog the page opened during an action, and how it was answered; `waiting`: a `confirm()`,
 * `prompt()` or leave-page dialog the page holds open until the model answers it (nothing else on
 * the page can be done meanwhile).
 */
export interface DialogRecord {
  type: "alert" | "confirm" | "prompt" | "beforeunload";
  message: string;
  answer: "accepted" | "dismissed" | "waiting";
  /** A prompt's default text. */
  default?: string;
  /**
   * A waiting dialog opened by an action someone confirmed (`--yes`, the user, the call): its
   * acceptance is confirmed with it.
   */
  confirmed?: boolean;
}

/** A download an action started. */
export interface DownloadRecord {
  /** The name the site suggested. */
  name: string;
  /** `saved` with its path and size; otherwise why not (`error` says more for `failed`). */
  state: "saved" | "canceled" | "running" | "failed";
  path?: string;
  bytes?: number;
  error?: string;
  /** For `running`: how long it was waited for, in ms. */
  waitedMs?: number;
}

/** A tab the action opened (the last of `count`), which became the current one. */
export interface TabRecord {
  index: number;
  url: string;
  title: string;
  /** How many tabs the action opened. */
  count: number;
}

/**
 * What is known of an action, first, before its changes (`effects`); one function (`judge`, in
 * the browser's `outcome/verdict.ts`) decides it from the outcome's data, and every renderer and
 * policy reads it from there (the loop guard, the report's "Nothing on the page changed"):
 * - `done`: a visible effect was measured (a change, a dialog, a download, a new tab, an answer);
 * - `partial`: something changed, but not all is known (`why`: the page was still busy at the
 *   settle cap);
 * - `no_effect`: measured, and nothing changed; `hidden`: the action worked a control, which may
 *   keep its state where nobody sees it;
 * - `refused`: nothing was done, and why (`reason`, as a failure's {@link ErrorKind}: a safety
 *   hold, a blocked address, an element that is gone; or a page's tool that said it failed);
 * - `unverifiable`: what it did was not measured (`why`: a tab switched or closed, a dialog held
 *   open, the page still busy at the cap with nothing seen yet).
 *
 * @example
 * ```ts
 * const v: Verdict = { kind: "no_effect", hidden: true };
 * ```
 */
export type Verdict =
  | { kind: "done" }
  | { kind: "partial"; why: string }
  | { kind: "no_effect"; hidden?: boolean }
  | { kind: "refused"; reason: ErrorKind; message: string }
  | { kind: "unverifiable"; why: string };

/**
 * What one browser action did and what it changed. `did` is the action's own phrase
 * (`Clicked [5]`); everything else is data.
 */
export interface ActionOutcome {
  did: string;
  /** What is known of it (see {@link Verdict}); judged once the outcome is complete. */
  verdict: Verdict;
  effects: Effect[];
  /** False for steps whose effects on the page are not measured (switching or closing tabs). */
  measured: boolean;
  /**
   * The step itself saw the page change where no effect words it (a bar's value): its effects
   * are not measured, but it did something.
   */
  sawChange?: boolean;
  /** Time spent waiting for the page to settle, in ms; absent when nothing was waited for. */
  settledMs?: number;
  /** The settle cap ended the wait with the page still busy. */
  capped: boolean;
  /** Why settling ended (absent when nothing was waited for). */
  settle?: SettleReason;
  /** The settle cap in force, in ms (to say so when `capped`). */
  capMs?: number;
  /** When `capped`: what still showed the page working (`"Searching…"`, `a progress bar`). */
  stillBusy?: string;
  /**
   * The action clicked or pressed a control: when nothing changed, it may keep its state where
   * nobody sees it (said so instead of a bare "nothing changed").
   */
  control?: boolean;
  /** A scroll that reached the bottom waited for more, and this many items loaded. */
  loaded?: number;
  newTab?: TabRecord;
  /** The current tab closed itself; now on this one. */
  closedItself?: { index: number; url: string };
  downloads: DownloadRecord[];
  dialogs: DialogRecord[];
  /** Top-level navigations the allowed-domains rule cancelled, and why. */
  blocked: BlockedNavigation[];
  /** Banners closed after the action loaded a new document, as phrases. */
  banners: string[];
  /** A mouse click could not land, so the element was clicked by script; why (`did` says so too). */
  fallback?: { reason: string };
  /**
   * What a page's own tool answered (WebMCP), cleaned as page text and cut: untrusted page
   * content; `failed` when it threw or said it failed.
   */
  toolAnswer?: { text: string; failed: boolean };
  /**
   * Where a point action pressed (a point inside an element, or of the screenshot): the point
   * in the window's CSS pixels, the element the press reached (`<td> "7"`), the ID of it or of
   * its nearest numbered ancestor, and where the point is inside that one (0 to 1 of its size:
   * a replay acts there again).
   */
  at?: { x: number; y: number; what: string; id?: number; part?: { x: number; y: number } };
}

/**
 * A navigation a fence refused in the browser (a link, a redirect, a script, a new tab): its
 * address, why, and whether it was a new tab's first document (then the tab was closed: it
 * loaded nothing).
 */
export interface BlockedNavigation {
  url: string;
  reason: string;
  /** What the model is told to do about it (`stay on them or ask the user`). */
  fix: string;
  closedTab?: boolean;
}

/**
 * What the run lets a tab open besides web pages (`--allow-files [DIR]`, `--allow-schemes`):
 * local files (all, or those under these folders), and these other kinds of address
 * (`data`, `javascript`, `chrome`, `view-source`). Nothing by default.
 */
export interface FenceAllowances {
  files?: true | readonly string[];
  schemes?: readonly AllowableScheme[];
}

/** The kinds of address besides files that `--allow-schemes` may allow. */
export const ALLOWABLE_SCHEMES = ["data", "javascript", "chrome", "view-source"] as const;

/** One of {@link ALLOWABLE_SCHEMES}. */
export type AllowableScheme = typeof ALLOWABLE_SCHEMES[number];
