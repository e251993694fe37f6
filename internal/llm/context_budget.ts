import {
  type ActionOutcome,
  type BrowserState,
  type Effect,
  estimateTokens,
  type StepRecord,
  type TokenScan,
  tokenScan,
} from "../entity/mod.ts";
import { pageToolLines, userMessage } from "./prompt.ts";
import { isAddressArg, urlsIn } from "./url_names.ts";

/** How large a step's user message may grow. */
export interface ContextLimits {
  /** Ceiling for the user message, in estimated tokens. */
  maxTokens: number;
  /** The last steps kept in full in HISTORY; older ones become short one-line summaries. */
  fullSteps: number;
  /** The step the model is asked for and the run's limit, said after HISTORY. */
  steps?: { now: number; max: number };
}

/**
 * The user message kept under `limits.maxTokens`: the last steps in full, older ones shortened;
 * when still too large, the oldest steps are left out, then the DOM summary is cut at the end
 * with a line that says so. The current page comes before old history. As a last resort (a
 * ceiling too small for what must be said) the last step is shortened too, then left out, then
 * the page summary, the page's title and address, and finally the task are cut, so the message
 * never exceeds the ceiling.
 *
 * @example
 * ```ts
 * const { text } = boundedUserMessage(task, history, page, { maxTokens: 12000, fullSteps: 8 });
 * ```
 */
export function boundedUserMessage(
  task: string,
  history: readonly StepRecord[],
  page: BrowserState,
  limits: ContextLimits,
): { text: string; tokens: number } {
  let shownTask = task;
  // The page's summary is read once: each render counts only what lies around it.
  const scan = tokenScan(page.summary);
  const render = (records: readonly StepRecord[], shown: BrowserState, omitted: number) => {
    const text = userMessage(shownTask, records, shown, omitted, limits.steps);
    return { text, tokens: messageTokens(text, shown, scan) };
  };
  const fits = (o: { tokens: number }) => o.tokens <= limits.maxTokens;
  // A message counts at least its summary's tokens (it follows a line break): a summary over the
  // ceiling on its own leaves out all the history it can, each cut made without measuring it.
  const hopeless = scan.tokens - SLACK > limits.maxTokens;
  const tried = (records: readonly StepRecord[], omitted: number) =>
    hopeless ? { text: "", tokens: Infinity } : render(records, page, omitted);
  const full = Math.max(1, limits.fullSteps);
  let records = history.map((r, i) => (i < history.length - full ? shorten(r) : r));
  let omitted = 0;
  let out = tried(records, omitted);
  // Shorten more of the recent steps, keeping the last two whole as long as possible.
  const first = Math.max(0, history.length - full);
  for (let i = first; !fits(out) && i < history.length - 2; i++) {
    records = records.map((r, j) => (j === i ? shorten(r) : r));
    out = tried(records, omitted);
  }
  // Leave out the oldest steps, keeping the last one.
  while (!fits(out) && records.length > 1) {
    records = records.slice(1);
    omitted = records[0]!.step - 1;
    out = tried(records, omitted);
  }
  if (hopeless) out = render(records, page, omitted);
  if (fits(out)) return out;
  // Cut the DOM summary to what fits, at least a few lines.
  let shown = cutSummary(page, limits.maxTokens - (out.tokens - scan.tokens), 3);
  out = render(records, shown, omitted);
  if (fits(out)) return out;
  // The last resort: every step short, then none, then no page lines, a short title and URL.
  records = records.map(shorten);
  out = render(records, shown, omitted);
  if (fits(out)) return out;
  omitted = history.length;
  records = [];
  const bare = { ...page, url: clip(page.url, 200), title: clip(page.title, 200), tabs: [] };
  const rest = render(records, { ...bare, summary: "" }, omitted).tokens;
  shown = cutSummary(bare, limits.maxTokens - rest, 0);
  out = render(records, shown, omitted);
  if (fits(out)) return out;
  // A task longer than the ceiling: keep its start (the command line refuses such tasks).
  const over = out.tokens - limits.maxTokens;
  const keep = Math.max(0, Math.floor(task.length * (1 - (over + 20) / estimateTokens(task))));
  shownTask = `${task.slice(0, keep)}… (the task was cut to fit the request)`;
  out = render(records, { ...bare, summary: "" }, omitted);
  while (!fits(out) && shownTask.length > 60) {
    shownTask = `${shownTask.slice(0, Math.floor(shownTask.length / 2))}…`;
    out = render(records, { ...bare, summary: "" }, omitted);
  }
  return out;
}

/**
 * Tokens a summary may lose in a message around it, beyond what the estimate's reading allows (a
 * space or line break before it merges with the message's line break: none in fact).
 */
const SLACK = 2;

/**
 * `estimateTokens(text)` of a message showing `shown`, whose summary is the scanned one or starts
 * like it (a cut one): the summary's pieces are counted from the scan.
 */
function messageTokens(text: string, shown: BrowserState, scan: TokenScan): number {
  const summary = shown.summary;
  const at = text.length - pageToolLines(shown.pageTools ?? []).length - summary.length;
  return scan.within(text, at, 0, sharedStart(summary, scan.text));
}

/** How many characters `a` and `b` start with alike. */
function sharedStart(a: string, b: string): number {
  if (a === b) return a.length;
  const max = Math.min(a.length, b.length);
  // A cut summary is the scanned one's first lines and a line that says so: those lines are
  // compared at once, the rest character by character.
  const lines = a.lastIndexOf("\n");
  let i = lines > 0 && b.startsWith(a.slice(0, lines)) ? lines : 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * What each line of the last summary cut cost, its line break included: a step's summary is
 * mostly the last one's lines, and a page of thousands is cut at every step.
 */
let lineTokens = new Map<string, number>();

/** The page with its summary cut to `room` tokens (at least `minLines` lines), said in a line. */
function cutSummary(page: BrowserState, room: number, minLines: number): BrowserState {
  const lines = page.summary.split("\n");
  const known = lineTokens, costs = new Map<string, number>();
  let left = room - 30;
  let keep = 0;
  while (keep < lines.length) {
    const line = lines[keep]!;
    const cost = known.get(line) ?? costs.get(line) ?? estimateTokens(line) + 1;
    costs.set(line, cost);
    if (cost > left && keep >= minLines) break;
    left -= cost;
    keep++;
  }
  lineTokens = costs;
  if (keep >= lines.length) return page;
  const summary = [
    ...lines.slice(0, keep),
    `… ${
      lines.length - keep
    } more lines of this page left out to keep the request small: scroll or search to see them`,
  ].join("\n");
  return { ...page, summary };
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * A step as a short line: no reasoning, long argument values cut; an action's result keeps what
 * it did, each effect in brief and the settle time (from its outcome), any other result is cut.
 */
function shorten(record: StepRecord): StepRecord {
  const args: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record.call.args)) {
    // An address is cut by the request, where it can tell it apart from the others.
    args[k] = typeof v === "string" && v.length > 60 && !isAddressArg(k, v)
      ? `${v.slice(0, 59)}…`
      : v;
  }
  const outcome = record.result.outcome;
  const text = outcome
    ? `${briefOutcome(outcome)}${record.loopMark ? ` ${record.loopMark}` : ""}`
    : clip(record.result.text.replace(/\s+/g, " "), 100);
  return {
    ...record,
    call: { ...record.call, args, reasoning: "" },
    result: { ...record.result, text },
  };
}

/** E.g. `Clicked [5]. now at http://a.com/cart; 3 appeared ("Total"). (settled in 180 ms)` */
function briefOutcome(o: ActionOutcome): string {
  const parts = [
    ...o.dialogs.map((d) => `a ${d.type} dialog (${d.answer})`),
    // Addresses are whole here: the request cuts long ones to what tells them apart.
    ...(o.newTab ? [`tab ${o.newTab.index} opened: ${o.newTab.url}`] : []),
    ...o.downloads.map((d) => `download ${clip(JSON.stringify(d.name), 40)} ${d.state}`),
    // "Opened URL" says the navigation already.
    ...o.effects.filter((e) => !(e.kind === "navigated" && o.did.includes(e.url))).map(briefEffect),
    ...o.blocked.map((b) => `blocked ${b.url}`),
  ];
  if (o.capped) parts.push(`not settled after ${o.capMs ?? 0} ms`);
  // The verdict says whether nothing changed; the brief line never guesses it from its parts.
  const effects = parts.length > 0
    ? ` ${parts.join("; ")}.`
    : o.verdict.kind === "no_effect"
    ? " Nothing on the page changed."
    : "";
  const settled = o.settledMs !== undefined ? ` (settled in ${o.settledMs} ms)` : "";
  // An address in it is cut by the request, where it can tell it apart from the others.
  const did = urlsIn(o.did).length > 0 ? o.did : clip(o.did, 80);
  return `${did}.${effects}${settled}`;
}

function briefEffect(e: Effect): string {
  switch (e.kind) {
    case "navigated":
      return `${e.reloaded ? "loaded again, " : ""}now at ${e.url}`;
    case "title":
      return `title ${clip(JSON.stringify(e.title), 40)}`;
    case "target": {
      const c = e.change;
      if (c.state === "value") return `[${e.id}] now reads ${clip(JSON.stringify(c.value), 30)}`;
      if (c.state === "left") return `[${e.id}] left`;
      const still = (c.state === "checked" || c.state === "unchecked") && !c.changed;
      return `[${e.id}] ${still ? "still" : "now"} ${c.state}`;
    }
    case "added": {
      const sample = e.samples[0] ? ` (${clip(JSON.stringify(e.samples[0]), 30)})` : "";
      return `${e.capped ? "500+" : e.count} appeared${sample}`;
    }
    case "removed":
      return `${e.count} disappeared`;
    case "text":
      return "text changed";
    case "focus":
      return `focus to ${clip(e.to, 30)}`;
    case "scrolled":
      return `scrolled ${e.direction}`;
    case "tab":
      return `on tab ${e.index}`;
    case "element":
      return `[${e.id}] ${e.to !== undefined ? "reads otherwise" : "changed state"}`;
    case "listed":
      return "elements came or went";
    case "outside":
      return "text appeared beyond the view";
    default:
      // An effect this brief form does not know yet is still named.
      return (e as { kind: string }).kind;
  }
}
