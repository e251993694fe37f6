import type { BrowserState, ObservedElement, SummaryLine } from "../entity/mod.ts";
import { AMOUNT, CARD_FIELD, PAYMENT_PATH, STEP_WORDS, TOTAL_WORDS } from "./safety_words.ts";
import { sectionAround } from "./target.ts";

/** What a control that submits would do: commit (Submit, OK, Enter) or move to a next step (Continue). */
export type Submits = "commits" | "steps";

/** The form around a control: the lines of its section, and the page's address. */
interface FormView {
  lines: readonly SummaryLine[];
  /** The URL's path (`/checkout/payment`); empty for `about:blank` and the like. */
  path: string;
}

/** One sign that submitting a form pays for something. */
interface PaymentSign {
  /** Which controls it makes a payment: any that submit, or only those that commit. */
  applies: "any" | "commits";
  /** What of the form shows it (`"Card number"`), or undefined when the form does not. */
  find(form: FormView): string | undefined;
  /** The reason, given what was found: `its form asks for "Card number"`. */
  says(found: string): string;
}

/**
 * The signs that a form's generic submit (Submit, OK, Continue, Enter in a field) is a payment,
 * each with its reason. They read the control's own form (its section of the page) and the
 * page's address, never a word anywhere on the page: a contact form whose topic list offers
 * "Billing" is not a checkout.
 */
const PAYMENT_SIGNS: readonly PaymentSign[] = [
  {
    // A card number, CVC or IBAN field: submitting hands over the means to pay.
    applies: "any",
    find: (form) => cardField(form.lines),
    says: (found) => `its form asks for ${JSON.stringify(found)}`,
  },
  {
    // A total with an amount next to a button that commits: the review step of a checkout.
    // "Continue" under a cart's total only moves on to the checkout, so it does not count.
    applies: "commits",
    find: (form) => totalLine(form.lines),
    says: (found) => `its form shows ${JSON.stringify(found)}`,
  },
  {
    // The address is a checkout or payment step (/checkout/…, /payment).
    applies: "any",
    find: (form) => PAYMENT_PATH.exec(form.path) ? form.path : undefined,
    says: (found) => `the page is a checkout step (${found})`,
  },
];

/**
 * Why submitting the form around line `index` pays for something, from the first sign of
 * {@link PAYMENT_SIGNS} its form shows; undefined when none does.
 *
 * @example
 * ```ts
 * paymentSign(state, 5, "commits"); // 'its form asks for "Card number"'
 * ```
 */
export function paymentSign(
  state: BrowserState,
  index: number,
  submits: Submits,
): string | undefined {
  const form: FormView = { lines: sectionAround(state, index), path: pathOf(state.url) };
  for (const sign of PAYMENT_SIGNS) {
    if (sign.applies === "commits" && submits !== "commits") continue;
    const found = sign.find(form);
    if (found !== undefined) return sign.says(short(found));
  }
  return undefined;
}

/** Whether a confirming label only moves on (`Continue`) rather than commits (`Submit`). */
export function submitsAs(label: string): Submits {
  return STEP_WORDS.test(label) ? "steps" : "commits";
}

/** A field named as a card's (its label, placeholder or name), or a short label line right above a field. */
function cardField(lines: readonly SummaryLine[]): string | undefined {
  for (const [i, line] of lines.entries()) {
    if (line.kind === "element" && isEntry(line.element)) {
      const el = line.element;
      const name = `${el.label} ${el.attrs.filter((a) => !a.startsWith("options=")).join(" ")}`;
      if (CARD_FIELD.test(name)) return el.label || name.trim();
    }
    const next = lines[i + 1];
    if (
      line.kind === "text" && line.text.length <= 40 && CARD_FIELD.test(line.text) &&
      next?.kind === "element" && isEntry(next.element)
    ) return line.text;
  }
  return undefined;
}

/** A line that names a total and shows an amount (`Total: $249.00`), or a short "Total" line and the amount below it. */
function totalLine(lines: readonly SummaryLine[]): string | undefined {
  const texts = lines.map((l) =>
    l.kind === "text" ? l.text : l.kind === "element" ? l.element.label : ""
  );
  for (const [i, text] of texts.entries()) {
    if (!TOTAL_WORDS.test(text)) continue;
    if (AMOUNT.test(text)) return text;
    const next = texts[i + 1] ?? "";
    if (text.length <= 30 && AMOUNT.test(next)) return `${text} ${next}`;
  }
  return undefined;
}

/** A field a person types into or picks from (not a button). */
function isEntry(el: ObservedElement): boolean {
  if (el.attrs.some((a) => /^type=(?:submit|button|image|reset|checkbox|radio)$/.test(a))) {
    return false;
  }
  return el.tag === "input" || el.tag === "select" || el.tag === "textarea" ||
    ["textbox", "combobox", "spinbutton"].includes(el.role);
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return ""; // about:blank and the like have no path worth reading
  }
}

function short(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > 60 ? `${t.slice(0, 59)}…` : t;
}
