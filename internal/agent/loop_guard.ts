import { createHash } from "node:crypto";
import { type BrowserState, resultVerdict, type ToolCall, type ToolResult } from "../entity/mod.ts";

/** When a run counts as looping. */
export interface LoopLimits {
  /** The same call this many times in a row with no page change is a loop. */
  repeat: number;
  /** This many steps in a row without any page change is a frozen world. */
  frozen: number;
}

/** What the guard says about a call before it runs. */
export type LoopVerdict =
  | { kind: "ok" }
  | { kind: "blocked"; text: string }
  | { kind: "stuck"; text: string };

interface Entry {
  key: string;
  shown: string;
  /** Page fingerprint when the call was chosen, and at the next observation. */
  before: string;
  after?: string;
  /**
   * For a call judged by its result too (work away from the agent's page, a module's call): true
   * when its result was new in the run, which is progress though the page stays.
   */
  news?: boolean;
  /**
   * Its verdict measured a change (`done`, `partial`) not seen before in the run: progress,
   * whatever the view shows of it (a value past the part the view quotes, a list reordered).
   */
  changed?: boolean;
}

/** The HISTORY mark for a step that repeats without effect: the same call on the same page. */
export const REPEATED_MARK = "⚠️ REPEATED — try a different approach";

/** The HISTORY mark for a new call on a page that has stayed the same for `steps` steps. */
export function unchangedMark(steps: number): string {
  return `⚠️ NO CHANGE for ${steps} steps — try a different approach`;
}

/**
 * Watches the run for loops: the same call with no page change `repeat` times, A-B-A-B
 * alternation that leads nowhere, or a world frozen (same URL and DOM) for `frozen` steps. It
 * escalates: first a mark in HISTORY, then the looping calls are blocked with suggestions, then
 * the run is stuck. It is given the run's steps: calls that end or pause the run (`done`,
 * `ask_user`: their tools' `effect: "ends"`) are not given to it.
 *
 * @example
 * ```ts
 * const guard = new LoopGuard({ repeat: 3, frozen: 6 }, ["scroll", "navigate", "ask_user"]);
 * const seen = guard.observe(fingerprint(state)); // { mark?, stuck? }
 * const verdict = guard.check(call, fingerprint(state));
 * guard.record(call, fingerprint(state));
 * ```
 */
export class LoopGuard {
  readonly #limits: LoopLimits;
  readonly #tools: readonly string[];
  readonly #entries: Entry[] = [];
  /** Call keys that may not run again while the page stays as it is. */
  readonly #blocked = new Map<string, { at: string; why: string }>();
  readonly #seen = new Set<string>();
  /** Results of calls that work away from the page, as {@link resultFingerprint}s. */
  readonly #results = new Set<string>();
  /** Changes steps made, as {@link stepChange}s: the same change again is no progress. */
  readonly #changes = new Set<string>();
  #strikes = 0;
  #markedAt = -1;

  constructor(limits: LoopLimits, toolNames: readonly string[]) {
    this.#limits = limits;
    this.#tools = toolNames;
  }

  /**
   * Takes the new observation's fingerprint: closes the previous step, returns a mark for its
   * HISTORY line when a loop shows, or a reason to stop when the world stays frozen. `change` is
   * the closing step's {@link stepChange}: a step whose verdict measured a change is never one
   * that changed nothing, unless it made that same change before (a button that shows the same
   * alert each time); a step counts as still only when its verdict says nothing changed (or it
   * has none: it only read), and the page's fingerprint stayed.
   */
  observe(fingerprint: string, change?: string): { mark?: string; stuck?: string } {
    const last = this.#entries.at(-1);
    if (!last || last.after !== undefined) return {};
    last.after = fingerprint;
    if (change !== undefined) {
      last.changed = !this.#changes.has(change);
      this.#changes.add(change);
    }
    if (!this.#seen.has(fingerprint) || last.news || last.changed) {
      // A page never seen before, or a result never seen before of a call that works away from
      // the page, is progress: earlier blocks no longer apply.
      this.#seen.add(fingerprint);
      this.#blocked.clear();
      this.#strikes = 0;
    }
    const frozen = this.#frozenRun();
    if (frozen.length >= this.#limits.frozen + 3) {
      return {
        stuck: `Stuck: the page has not changed for ${frozen.length} steps (${
          summarize(frozen)
        }). Try rephrasing the task or start from another page`,
      };
    }
    const found = this.#detect(frozen);
    if (!found || this.#markedAt === this.#entries.length - 1) return {};
    this.#markedAt = this.#entries.length - 1;
    for (const entry of found.entries) {
      this.#blocked.set(entry.key, { at: entry.before, why: found.why });
    }
    // A repeat is the same call on the same page; a new call on a still page is said as such.
    const repeat = this.#entries.slice(0, -1).some((e) =>
      e.key === last.key && e.before === last.before
    );
    return { mark: repeat ? REPEATED_MARK : unchangedMark(frozen.length) };
  }

  /** Says whether a call may run: it may be blocked as a repeat, or end the run as stuck. */
  check(call: ToolCall, fingerprint: string): LoopVerdict {
    const blocked = this.#blocked.get(keyOf(call));
    if (!blocked || blocked.at !== fingerprint) return { kind: "ok" };
    this.#strikes++;
    if (this.#strikes >= 2) {
      return {
        kind: "stuck",
        text: `Stuck in a loop: ${blocked.why}, and the model kept trying ${
          shownOf(call)
        } after it was blocked`,
      };
    }
    return {
      kind: "blocked",
      text: `Blocked: ${blocked.why}. Do not repeat ${shownOf(call)}: ${this.#suggestions()}`,
    };
  }

  /**
   * Notes a call that ran (or was blocked) on the page with this fingerprint. `result` is given
   * for a call judged by its result too ({@link resultFingerprint} of it: a call whose work does
   * not show on the page, or a module's): a result not seen before in the run is progress, the
   * same one again is not.
   */
  record(call: ToolCall, fingerprint: string, result?: string): void {
    this.#seen.add(fingerprint);
    const entry: Entry = { key: keyOf(call), shown: shownOf(call), before: fingerprint };
    if (result !== undefined) {
      entry.news = !this.#results.has(result);
      this.#results.add(result);
    }
    this.#entries.push(entry);
  }

  /** The trailing steps, all closed, that changed nothing. */
  #frozenRun(): Entry[] {
    const run: Entry[] = [];
    for (let i = this.#entries.length - 1; i >= 0; i--) {
      const e = this.#entries[i]!;
      // A page that changed by itself between two steps ends the run of still steps too.
      const next = this.#entries[i + 1];
      if (e.after === undefined || e.after !== e.before || (next && next.before !== e.after)) break;
      if (e.news || e.changed) break;
      run.unshift(e);
    }
    return run;
  }

  #detect(frozen: Entry[]): { entries: Entry[]; why: string } | undefined {
    const last = frozen.at(-1);
    let same = 0;
    for (
      let i = frozen.length - 1;
      // In a run of still steps every page state is the same: the key alone tells a repeat.
      last && i >= 0 && frozen[i]!.key === last.key;
      i--
    ) same++;
    if (last && same >= this.#limits.repeat) {
      return {
        entries: [last],
        why: `${last.shown} already ran ${same} times without changing the page${
          last.news === undefined ? "" : " or its result"
        }`,
      };
    }
    const e = this.#entries.slice(-4);
    if (
      e.length === 4 && e[0]!.key === e[2]!.key && e[1]!.key === e[3]!.key &&
      e[0]!.key !== e[1]!.key && e[0]!.before === e[2]!.before && e[1]!.before === e[3]!.before &&
      e[3]!.after === e[1]!.after && !e[2]!.news && !e[3]!.news
    ) {
      return {
        entries: [e[2]!, e[3]!],
        why: `${e[2]!.shown} and ${e[3]!.shown} alternate without getting anywhere`,
      };
    }
    if (frozen.length >= this.#limits.frozen) {
      return {
        entries: frozen,
        why: `the page has not changed for ${frozen.length} steps (${summarize(frozen)})`,
      };
    }
    return undefined;
  }

  #suggestions(): string {
    const ideas: string[] = [];
    if (this.#tools.includes("scroll")) ideas.push("scroll to see more of the page");
    if (this.#tools.includes("find")) ideas.push("find the element by its text");
    if (this.#tools.includes("go_back")) ideas.push("go back");
    if (this.#tools.includes("navigate")) ideas.push("navigate to another page");
    if (this.#tools.includes("ask_user")) ideas.push("ask_user");
    ideas.push("or call done with success=false if the task cannot be done");
    return `try a different approach: ${ideas.join(", ")}`;
  }
}

/**
 * A fingerprint of what the model sees: URL and DOM summary lines, without what changes between
 * two looks at the same page: the marks of new elements (`*[57]`) and which element has focus
 * (a click focuses its button, and that alone is no visible change).
 *
 * @example
 * ```ts
 * fingerprint({ url: "https://a.com/", title: "A", lines: [], summary: "" });
 * ```
 */
export function fingerprint(state: BrowserState): string {
  // A view is taken once a step and read twice (the new view, then the call chosen on it).
  const known = fingerprints.get(state);
  if (known !== undefined) return known;
  const made = hashView(state);
  fingerprints.set(state, made);
  return made;
}

/** Fingerprints of the views already taken: a view is not changed once observed. */
const fingerprints = new WeakMap<BrowserState, string>();

function hashView(state: BrowserState): string {
  // The lines joined by line breaks, hashed once: the hash runs natively, and a whole page's
  // text (some 200,000 characters on a 5,000-element page) is cheap to join.
  const parts = [state.url];
  for (const line of state.lines) {
    if (line.kind !== "element") {
      parts.push(line.text);
      continue;
    }
    const { id, tag, attrs, states, label, value } = line.element;
    const shown = states.filter((s) => s !== "FOCUSED").join(" ");
    parts.push(`[${id}] <${tag} ${attrs.join(" ")}> {${shown}} ${label} ${value ?? ""}`);
  }
  return hash(parts.join("\n"));
}

/**
 * The change a step made, for {@link LoopGuard.observe}: when its verdict (the data, never its
 * sentence) says it measured one (`done`, `partial`), a fingerprint of what changed (effects,
 * dialogs, downloads, a new tab, items loaded, a page tool's answer); undefined when it says
 * nothing changed, nothing was done, or it could not tell (then the page's fingerprint decides).
 *
 * @example
 * ```ts
 * stepChange({ ok: true, text: "Typed", outcome }); // "14:9a0c…" when outcome.verdict is done
 * ```
 */
export function stepChange(result: ToolResult): string | undefined {
  const verdict = resultVerdict(result);
  const o = result.outcome;
  if (!o || (verdict?.kind !== "done" && verdict?.kind !== "partial")) return undefined;
  const { effects, dialogs, closedItself, loaded, toolAnswer } = o;
  // A download again is the same change, whatever name the browser saved it under (`a (2).csv`)
  // and however long it took; a new tab again too, whatever its place in the tab list.
  const downloads = o.downloads.map((d) => [d.name, d.state]);
  const newTab = o.newTab && [o.newTab.url, o.newTab.title];
  return hash(
    JSON.stringify({ effects, dialogs, downloads, newTab, closedItself, loaded, toolAnswer }),
  );
}

/**
 * What a call's result says, for a call whose work does not show on the agent's page: its
 * status, text, data and picture, hashed. Two results with the same fingerprint said the same.
 *
 * @example
 * ```ts
 * resultFingerprint({ ok: true, text: "Noted" }) === resultFingerprint({ ok: true, text: "Noted" });
 * ```
 */
export function resultFingerprint(result: ToolResult): string {
  return hash([
    result.ok ? "ok" : `error ${result.kind ?? ""}`,
    result.text,
    JSON.stringify(result.data ?? null),
    result.image?.base64 ?? "",
  ].join("\n"));
}

/** SHA-1 of a text, and its length: `length:hex`. */
function hash(text: string): string {
  return `${text.length}:${createHash("sha1").update(text).digest("hex")}`;
}

function keyOf(call: ToolCall): string {
  const args = Object.keys(call.args).sort().map((k) => {
    const v = call.args[k];
    // "12", "[12]" and 12 are the same element.
    const same = k === "id" && typeof v === "string" ? Number(v.replace(/[\s[\]]/g, "")) : v;
    return `${k}=${JSON.stringify(same)}`;
  });
  return `${call.name}(${args.join(",")})`;
}

function shownOf(call: ToolCall): string {
  const args = Object.entries(call.args).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  const shown = `${call.name}(${args.join(", ")})`;
  return shown.length > 80 ? `${shown.slice(0, 79)}…` : shown;
}

function summarize(entries: Entry[]): string {
  const names = [...new Set(entries.map((e) => e.shown))];
  return names.length > 3 ? `${names.slice(0, 3).join(", ")}, …` : names.join(", ");
}
