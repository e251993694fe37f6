/**
 * Which lines an observation keeps when the token budget is short: each line gets a rank from
 * {@link LINE_RANKS} (lower goes in first), the lines are fitted by {@link fitBudget}, and what
 * was left out is counted in a closing note. The numbers are rows of {@link LINE_RANKS} and
 * {@link FIT}, each with its reason.
 *
 * @module
 */
import { estimateTokens, type SummaryLine } from "../../entity/mod.ts";
import { WHERE } from "../shared/walk_types.ts";
import { EXTRA_SHARE, fitBudget } from "./token_budget.ts";

/** What a line's rank depends on: where its item is, and what the line is. */
export interface LineFacts {
  /** The item's `WHERE` bits (viewport, dialog, form). */
  where: number;
  line: SummaryLine;
}

/** One rule of {@link LINE_RANKS}: the rank of the lines it matches, and why. */
export interface RankRule {
  rank: number;
  matches: (facts: LineFacts) => boolean;
  reason: string;
}

const inView = ({ where }: LineFacts) => (where & WHERE.viewport) !== 0;
const isElement = ({ line }: LineFacts) => line.kind === "element";
const isHeading = ({ line }: LineFacts) => line.kind === "text" && Boolean(line.heading);

/** The ranks of an observation's lines: the first row that matches gives a line its rank. */
export const LINE_RANKS: readonly RankRule[] = [
  {
    rank: 0,
    matches: ({ where }) => (where & WHERE.dialog) !== 0,
    reason: "an open modal dialog is what the page waits on: it shows before anything else",
  },
  {
    rank: 1,
    matches: ({ where }) => (where & WHERE.form) !== 0,
    reason: "the form that holds the focus is being filled: its fields stay together",
  },
  {
    rank: 2,
    matches: (f) => isElement(f) && inView(f),
    reason: "the controls on screen are what the model acts on next",
  },
  {
    rank: 3,
    matches: (f) => isHeading(f) && inView(f),
    reason: "the headings on screen say where those controls are",
  },
  {
    rank: 4,
    matches: inView,
    reason: "the text on screen: what the page says, after what can be acted on",
  },
  {
    rank: 5,
    matches: isElement,
    reason: "controls only near the screen (the margin band): a short scroll away",
  },
  {
    rank: 6,
    matches: isHeading,
    reason: "headings near the screen",
  },
  {
    rank: 7,
    matches: () => true,
    reason: "text near the screen: the first to go",
  },
];

/** The other numbers of fitting lines into the budget, each with its reason. */
export const FIT = {
  /** Added to the rank of every line behind an open modal dialog. */
  behindModal: {
    add: 10,
    reason: "the page behind a modal dialog is inert until it closes: all of it after the dialog",
  },
  /** The rank of a frame's or a dialog's divider line. */
  divider: {
    rank: -1,
    reason: "a divider says where the lines after it come from: it always goes in first",
  },
  /** Tokens set aside per divider, instead of its own size. */
  dividerTokens: {
    tokens: 12,
    reason: "dividers always show: their room is taken from the budget before any line",
  },
  /** Tokens set aside for the note that says what the budget left out. */
  leftOutReserve: {
    tokens: 40,
    reason: "the note that counts what was left out must fit after the lines that were kept",
  },
  /** Lines of this rank or more fill at most `EXTRA_SHARE` of the budget. */
  extraFrom: {
    rank: 4,
    reason: "elements and headings on screen may use the whole budget; plain text and what " +
      "is only near the screen fill at most EXTRA_SHARE of it",
  },
} as const;

/** A summary line on its way into the budget: its rank and its size in tokens. */
export interface Ranked {
  line: SummaryLine;
  rank: number;
  tokens: number;
}

/** A line's rank: the first row of {@link LINE_RANKS} it matches, later behind a modal dialog. */
export function rankOf(facts: LineFacts, modal: boolean): number {
  const rank = LINE_RANKS.find((rule) => rule.matches(facts))!.rank;
  return modal && !(facts.where & WHERE.dialog) ? rank + FIT.behindModal.add : rank;
}

/** A divider line (a frame's, or the page behind a dialog), which always goes in. */
export function divider(text: string, kind: "frame" | "dialog"): Ranked {
  return { line: { kind: "note", text, divider: kind }, rank: FIT.divider.rank, tokens: 0 };
}

/**
 * The lines that fit `tokenBudget` (by rank, then in reading order) with `notes` after them, and
 * a note that counts what was left out; a frame's divider with nothing kept after it goes too.
 */
export function fitLines(
  entries: readonly Ranked[],
  notes: readonly string[],
  tokenBudget: number,
): SummaryLine[] {
  const noteTokens = notes.reduce((n, t) => n + estimateTokens(t) + 1, 0);
  const dividers = entries.filter((e) => e.rank === FIT.divider.rank).length;
  const held = noteTokens + FIT.leftOutReserve.tokens + dividers * FIT.dividerTokens.tokens;
  const keep = fitBudget(entries, Math.max(0, tokenBudget - held), {
    from: FIT.extraFrom.rank,
    budget: Math.max(0, tokenBudget * EXTRA_SHARE - held),
  });
  let leftEls = 0, leftText = 0;
  const lines: SummaryLine[] = [];
  entries.forEach((e, i) => {
    if (keep[i]) lines.push(e.line);
    else if (e.line.kind === "element") leftEls++;
    else leftText++;
  });
  const tidy = lines.filter((l, i) =>
    !(l.kind === "note" && l.divider === "frame" &&
      (i + 1 >= lines.length || lines[i + 1]!.kind === "note"))
  );
  const closing = [...notes];
  if (leftEls + leftText > 0) {
    const parts = [
      leftEls ? `${leftEls} element${leftEls === 1 ? "" : "s"}` : "",
      leftText ? `${leftText} text line${leftText === 1 ? "" : "s"}` : "",
    ].filter(Boolean);
    closing.push(`… left out to fit the token budget: ${parts.join(", ")}; use find or read`);
  }
  for (const text of closing) tidy.push({ kind: "note", text });
  return tidy;
}
