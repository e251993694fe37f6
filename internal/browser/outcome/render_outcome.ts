import type {
  ActionOutcome,
  DialogRecord,
  DownloadRecord,
  Effect,
  TargetChange,
} from "../../entity/mod.ts";
import { cut } from "../shared/text.ts";

/**
 * The model's sentence for what an action did: `did`, then what changed, then the settle time,
 * e.g. `Clicked [5]. Now at http://…/cart "Cart"; focus moved to <input> "Email". (settled in
 * 180 ms)`; an address `did` names is not said again (`Opened http://…/cart "Cart".`); "Nothing
 * on the page changed" only when its verdict is `no_effect`. The one renderer of
 * {@link ActionOutcome} for the model and the history.
 *
 * @example
 * ```ts
 * renderOutcome({ did: "Pressed Enter", verdict: { kind: "no_effect" }, effects: [],
 *   measured: true, settledMs: 104, capped: false, downloads: [], dialogs: [], blocked: [],
 *   banners: [] });
 * // "Pressed Enter. Nothing on the page changed. (settled in 104 ms)"
 * ```
 */
export function renderOutcome(o: ActionOutcome): string {
  const parts: string[] = o.dialogs.map(renderDialog);
  // A page tool's answer is page content, quoted as such (`toolAnswer` is one cleaned line).
  if (o.toolAnswer) {
    const { text, failed } = o.toolAnswer;
    parts.unshift(
      failed ? `it failed: ${JSON.stringify(text)}` : `it answered ${JSON.stringify(text)}`,
    );
  }
  if (o.newTab) {
    const t = o.newTab;
    const more = t.count > 1 ? ` (${t.count} tabs opened)` : "";
    parts.push(
      `a new tab ${t.index} opened${more}: ${t.url}${
        t.title ? ` "${t.title}"` : ""
      }, and is now the current tab`,
    );
  } else if (o.closedItself) {
    parts.push(`the tab closed itself; now on tab ${o.closedItself.index}: ${o.closedItself.url}`);
  }
  parts.push(...o.downloads.map(renderDownload));
  if (o.loaded) parts.push(`${o.loaded} more item${o.loaded === 1 ? "" : "s"} loaded`);
  // "Opened URL" names the address already: the navigation it made adds only the page's title.
  const named = o.effects.find((e) => e.kind === "navigated" && names(o.did, e.url));
  let did = o.did;
  parts.push(...o.effects.filter((e) => e !== named).map(renderEffect));
  if (named?.kind === "navigated" && named.title) {
    if (did.endsWith(named.url)) did += ` "${named.title}"`;
    else parts.push(`the page is titled "${named.title}"`);
  }
  parts.push(...o.banners);
  const asked = o.settle?.kind === "capped" && o.settle.loading ? o.settle.waitingOn : undefined;
  if (o.capped && asked) {
    parts.push(
      `still loading after ${seconds(o.capMs ?? 0)} s: the page ${asked} has not answered yet; ` +
        `wait, or observe again later`,
    );
  } else if (o.capped && o.stillBusy) {
    parts.push(
      `still loading after ${seconds(o.capMs ?? 0)} s (${o.stillBusy} still shows): ` +
        `wait, or observe again later`,
    );
  } else if (o.capped) {
    parts.push(`the page had not settled after ${o.capMs ?? 0} ms (still loading or busy)`);
  }
  // What the verdict says, never what the parts seem to say: "nothing" only when it was measured.
  const v = o.verdict;
  const effects = parts.length > 0
    ? ` ${capital(parts.join("; "))}.`
    : v.kind === "no_effect"
    ? ` Nothing on the page changed${v.hidden ? "; the control may keep its state hidden" : ""}.`
    : "";
  const settled = o.settledMs !== undefined
    ? ` (settled in ${o.settledMs} ms${waitedOn(o.settle)})`
    : "";
  const blocked = o.blocked.map((b) =>
    b.closedTab
      ? ` Blocked a new tab to ${b.url}: ${b.reason}; it sent nothing and was closed; ${b.fix}.`
      : ` Blocked ${b.url}: ${b.reason}; ${b.fix}.`
  );
  // An action a prompt stopped before it could say what it did (the prompt says it all).
  const head = did ? `${did}.${effects}` : effects.trimStart();
  return `${head}${settled}${blocked.join("")}`;
}

/** `did` names `url` as a whole word (not a longer address that starts with it). */
function names(did: string, url: string): boolean {
  for (let at = did.indexOf(url); at >= 0; at = did.indexOf(url, at + 1)) {
    if (/^(\s|$)/.test(did.slice(at + url.length, at + url.length + 1))) return true;
  }
  return false;
}

/** What settling waited on, when it matters: a request or a busy sign (the cap says itself). */
function waitedOn(r: ActionOutcome["settle"]): string {
  if (r?.kind === "request") return `, after the request to ${r.url}`;
  if (r?.kind === "busy") return `, once ${r.what} went`;
  return "";
}

/** `downloaded "report.csv" (1.2 KB) to /home/me/downloads/report.csv`, or why it was not saved. */
export function renderDownload(d: DownloadRecord): string {
  const name = JSON.stringify(d.name);
  switch (d.state) {
    case "saved":
      return `downloaded ${name} (${size(d.bytes ?? 0)}) to ${d.path}`;
    case "running":
      return `a download of ${name} is still running after ${(d.waitedMs ?? 0) / 1000} s`;
    case "canceled":
      return `the download of ${name} was canceled`;
    case "failed":
      return `the download of ${name} could not be saved: ${d.error ?? "unknown error"}`;
  }
}

/**
 * `an alert said "Saved!" (accepted)`; a dialog held open for the model's answer: `the page
 * asks "Delete?" (a confirm dialog): press Enter to accept it (OK), or Escape to cancel it`, a
 * prompt `… (a prompt, default "Guest"): type the answer (type with no id), press Enter for the
 * default, or press Escape to dismiss it`; one that opened between actions was dismissed.
 */
export function renderDialog(d: DialogRecord): string {
  const shown = d.message ? ` ${JSON.stringify(cut(d.message, 200))}` : "";
  if (d.type === "alert") return `an alert said${shown || " nothing"} (accepted)`;
  if (d.answer === "waiting" && d.type === "prompt") {
    const given = d.default ? `, default ${JSON.stringify(cut(d.default, 80))}` : "";
    return `the page asks${shown} (a prompt${given}): type the answer (type with no id), press Enter for the default, or press Escape to dismiss it`;
  }
  if (d.answer === "waiting" && d.type === "beforeunload") {
    return `the page asks whether to leave it (a leave-page dialog${shown}): press Enter to leave, or Escape to stay`;
  }
  if (d.answer === "waiting") {
    return `the page asks${shown} (a ${d.type} dialog): press Enter to accept it (OK), or Escape to cancel it`;
  }
  const what = d.type === "beforeunload" ? "a leave-page dialog" : `a ${d.type} dialog`;
  return `${what} asked${shown} (${d.answer})`;
}

/**
 * The sentence for a dialog the page holds open: what the view of the page shows, and why any
 * other action is refused until it is answered.
 */
export function renderHeldPrompt(d: DialogRecord): string {
  return `${capital(renderDialog(d))}.`;
}

function renderEffect(e: Effect): string {
  const at = "inFrame" in e && e.inFrame ? " in its frame" : "";
  switch (e.kind) {
    case "navigated":
      return `${e.reloaded ? "the page loaded again: " : ""}now at ${e.url}${
        e.title ? ` "${e.title}"` : ""
      }`;
    case "title":
      return `the title is now "${e.title}"`;
    case "target":
      return targetPhrase(e.id, e.change);
    case "control":
      return `${targetPhrase(e.id, e.change)}${at}`;
    case "revealed": {
      const names = [
        ...e.headings.map((h) => `heading ${JSON.stringify(h)}`),
        ...e.samples.map((s) => JSON.stringify(s)),
      ];
      return `came into view: ${names.join(", ")}`;
    }
    case "added": {
      const n = e.capped ? "500+" : String(e.count);
      const names = [
        ...(e.headings ?? []).map((h) => `heading ${JSON.stringify(h)}`),
        ...e.samples.map((s) => JSON.stringify(s)),
      ];
      if (names.length === 0) return `${n} new item${e.count === 1 ? "" : "s"} appeared${at}`;
      const all = e.count > names.length ? ` (${n} new items in all)` : "";
      return `appeared${at}: ${names.join(", ")}${all}`;
    }
    case "removed":
      return `${e.count} item${e.count === 1 ? "" : "s"} disappeared${at}`;
    case "text": {
      const said = [
        ...(e.changes ?? []).map((c) =>
          `${JSON.stringify(c.from || "(nothing)")} now reads ${JSON.stringify(c.to)}`
        ),
        ...(e.lines ?? []).map((l) => `${JSON.stringify(l)} appeared`),
        ...(e.gone ?? []).map((l) => `${JSON.stringify(l)} is gone`),
      ];
      const styled = (e.styled ?? []).map((t) =>
        `${JSON.stringify(t.text)} is ${t.now ? "now" : "no longer"} ${t.how}${at}`
      );
      if (said.length === 0 && styled.length > 0) return styled.join(", ");
      return [
        said.length > 0
          ? `the visible text changed${at}: ${said.join(", ")}`
          : `the visible text changed${at}`,
        ...styled,
      ].join("; ");
    }
    case "focus":
      return `focus moved to ${e.to}${at}`;
    case "scrolled":
      return `the page scrolled ${e.direction}${at}`;
    case "tab":
      return `now on tab ${e.index}: ${e.url}${e.title ? ` "${e.title}"` : ""}`;
    case "element":
      return elementPhrase(e);
    case "listed":
      return listedPhrase(e);
    case "outside":
      return `beyond the view: ${e.samples.map((s) => JSON.stringify(s)).join(", ")}`;
  }
}

/** `[21] (icon: share) is now selected`, `[7] now reads "2 items" (was "1 item")`. */
function elementPhrase(e: Extract<Effect, { kind: "element" }>): string {
  const said: string[] = [];
  if (e.added.length) said.push(`is now ${e.added.map(stateWord).join(", ")}`);
  if (e.removed.length) said.push(`is no longer ${e.removed.map(stateWord).join(", ")}`);
  if (e.to !== undefined) {
    const was = e.from ? ` (was ${JSON.stringify(e.from)})` : "";
    said.push(`now reads ${JSON.stringify(e.to)}${was}`);
  }
  if (e.attrs?.length) said.push(`now shows ${e.attrs.join(" ")}`);
  if (e.moved) {
    said.push(
      `moved from under ${JSON.stringify(cut(e.moved.from, 40))} to under ${
        JSON.stringify(cut(e.moved.to, 40))
      }`,
    );
  }
  const name = e.to !== undefined || e.attrs?.length || !e.name ? "" : ` ${e.name}`;
  return `[${e.id}]${name} ${said.join(" and ")}`;
}

/** `CHECKED` → `checked`, `HAS-POPUP` → `has popup`. */
function stateWord(state: string): string {
  return state.toLowerCase().replaceAll("-", " ");
}

/** `now listed: [4] "Save"; no longer listed: [2] "Edit"; [5] drawn again as [9]`. */
function listedPhrase(e: Extract<Effect, { kind: "listed" }>): string {
  const parts: string[] = [];
  if (e.shown.length) parts.push(`now listed: ${e.shown.join(", ")}`);
  if (e.hidden.length) parts.push(`no longer listed: ${e.hidden.join(", ")}`);
  if (e.redrawn.length) {
    const from = e.redrawn.map((r) => `[${r.from}]`).join(", ");
    const to = e.redrawn.map((r) => `[${r.to}]`).join(", ");
    parts.push(`${from} drawn again as ${to}`);
  }
  if (e.more) parts.push(`${e.more} more change${e.more === 1 ? "" : "s"}: see the view`);
  return parts.join("; ");
}

function targetPhrase(id: number, c: TargetChange): string {
  switch (c.state) {
    case "left":
      return `[${id}] left the page`;
    case "checked":
    case "unchecked":
      return `[${id}] ${c.changed ? "is now" : "is still"} ${c.state}`;
    case "value":
      return `[${id}] now reads ${JSON.stringify(cut(c.value.replace(/\s+/g, " "), 80))}`;
    case "restyled":
      return `[${id}] looks different now (its colours changed)`;
    default:
      return `[${id}] is now ${c.state}`;
  }
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
