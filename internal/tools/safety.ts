import type { BrowserState, DialogRecord, ObservedElement, ToolCall } from "../entity/mod.ts";
import { paymentSign, submitsAs } from "./payment_signs.ts";
import {
  ACCOUNT_PAGE,
  ACTION_WORDS,
  CONFIRM_WORDS,
  MESSAGE_FIELD,
  type RiskCategory,
  SAVE_WORDS,
  SEARCH_WORDS,
} from "./safety_words.ts";
import { contextBefore, describeTarget, focused, idOf, locate, type Located } from "./target.ts";

export type { RiskCategory } from "./safety_words.ts";

/** A call that may do something irreversible, and why we think so. */
export interface Risk {
  category: RiskCategory;
  /** `click [12] "Place order"`. */
  action: string;
  /** `the button says "Place order"`. */
  reason: string;
}

/** Options of {@link assessRisk}. */
export interface RiskOptions {
  /** The element a `press` focuses before the key (the MCP server's `browser_press(key, id)`). */
  focus?: number;
}

const KIND: Record<RiskCategory, string> = {
  payment: "a payment or purchase",
  deletion: "a deletion",
  sending: "sending or publishing",
  account: "a change to account data",
  tool: "a tool marked destructive",
};

/** `payment` → "a payment or purchase", for messages. */
export function riskKind(category: RiskCategory): string {
  return KIND[category];
}

/**
 * Recognises destructive calls — paying, buying, ordering, deleting, sending, posting, saving
 * account data — from the target element's label, the text just before it (a dialog's
 * question), its form (card fields, a total to pay: see `payment_signs.ts`) and the page's
 * address and title (a checkout step, an account page), in several languages. A `dialog` call
 * (or Enter, or typing, while the page holds a dialog open) accepts that dialog: it is judged by
 * what the dialog asks. Shared by the agent loop and the MCP server, which both hold what it
 * flags until someone confirms.
 *
 * @example
 * ```ts
 * assessRisk({ name: "click", args: { id: 9 }, reasoning: "" }, state);
 * // { category: "payment", action: 'click [9] "Place order"', reason: 'the button says "Place order"' }
 * ```
 */
export function assessRisk(
  call: ToolCall,
  state: BrowserState,
  options: RiskOptions = {},
): Risk | undefined {
  const id = idOf(call.args);
  if (call.name === "dialog") {
    const accepts = typeof call.args.text === "string" || call.args.accept === true;
    const text = typeof call.args.text === "string" ? call.args.text : state.dialog?.default ?? "";
    return accepts && state.dialog ? answerRisk(state.dialog, text) : undefined;
  }
  if (call.name === "page_tool") return pageToolRisk(state, String(call.args.name ?? ""));
  // A dialog the page holds open takes the keys: typing into a prompt or Enter answers it.
  const held = state.dialog?.answer === "waiting" ? state.dialog : undefined;
  if (held && call.name === "type" && id === undefined) return answerRisk(held, call.args.text);
  if (held && call.name === "press" && call.args.key === "Enter") {
    return answerRisk(held, held.default ?? "");
  }
  const action = `${call.name}${id !== undefined ? ` ${describeTarget(state, id)}` : ""}`;
  if (call.name === "drag") return dropRisk(state, call.args.to, action);
  // A right click opens a menu: what is then chosen in it is judged as its own click.
  if (call.name === "click" && call.args.button === "right") return undefined;
  if (call.name === "click") {
    const target = locate(state, id);
    return target && clickRisk(target, state, action);
  }
  if (call.name === "type" && call.args.press_enter === true) {
    const target = locate(state, id);
    return target && enterRisk(target, state, `${action} and press Enter`);
  }
  if (call.name === "press" && typeof call.args.key === "string") {
    if (!/(^|\+)enter$/i.test(call.args.key.trim())) return undefined;
    const target = options.focus !== undefined ? locate(state, options.focus) : focused(state);
    if (!target) return undefined;
    const what = `press Enter on ${describeTarget(state, target.element.id)}`;
    return isField(target.element)
      ? enterRisk(target, state, what)
      : clickRisk(target, state, what);
  }
  return undefined;
}

function clickRisk(target: Located, state: BrowserState, action: string): Risk | undefined {
  const el = target.element;
  if (isField(el) && !isSubmit(el)) return undefined;
  const label = el.label.trim();
  const says = `the ${el.tag === "a" ? "link" : "button"} says ${JSON.stringify(short(label))}`;
  const own = wordsRisk(label, action, says);
  if (own) return own;
  if (SEARCH_WORDS.test(label)) return undefined;
  // Links are judged by their own words only; buttons also by what they confirm.
  const confirming = el.tag !== "a" && (CONFIRM_WORDS.test(label) || isSubmit(el) || label === "");
  if (!confirming) {
    if (accountPage(state) && SAVE_WORDS.test(label)) {
      return { category: "account", action, reason: `${says} on an account page` };
    }
    return undefined;
  }
  const context = contextBefore(state, target.index);
  const confirms = wordsRisk(context, action, `it confirms ${JSON.stringify(short(context))}`);
  if (confirms) return confirms;
  const sign = paymentSign(state, target.index, label === "" ? "commits" : submitsAs(label));
  if (sign) return { category: "payment", action, reason: `${says} and ${sign}` };
  if (accountPage(state)) {
    return { category: "account", action, reason: `${says} on an account page` };
  }
  return undefined;
}

/**
 * A drag by where it drops: onto an element (its ID) or a text the page shows ("Trash",
 * "Delete"), judged by the words of that place as a button with them would be.
 */
function dropRisk(state: BrowserState, to: unknown, action: string): Risk | undefined {
  const place = typeof to === "number" ? locate(state, to)?.element.label : to;
  if (typeof place !== "string" || !place.trim()) return undefined;
  const where = `${action} onto ${JSON.stringify(short(place))}`;
  return wordsRisk(place, where, "the place it drops onto says so");
}

/**
 * A tool the page declares, as a button that says its name (`buy_now` says "buy now") and, where
 * that says nothing, its description: what the page says of it is all there is to judge by.
 */
function pageToolRisk(state: BrowserState, name: string): Risk | undefined {
  const tool = state.pageTools?.find((t) => t.name === name);
  const words = name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_.-]+/g, " ");
  const action = `page_tool ${JSON.stringify(short(name))}`;
  const said: [string, string][] = [[words, `its name says ${JSON.stringify(short(words))}`]];
  if (tool) said.push([tool.description, `it says ${JSON.stringify(short(tool.description))}`]);
  for (const [text, reason] of said) {
    const risk = wordsRisk(text, action, reason);
    if (risk) return risk;
  }
  return undefined;
}

/**
 * Accepting a dialog that confirms what cannot be undone (a `confirm("Delete all 3 items?")`,
 * a prompt "Type the project's name to delete it forever"), as a click on the OK of a dialog
 * that asks it; not when the action that opened it was confirmed (its dialogs are), nor a
 * dismissal.
 */
function answerRisk(d: DialogRecord, text: unknown): Risk | undefined {
  if (d.confirmed || typeof text !== "string") return undefined;
  const action = d.type === "prompt"
    ? `answer the prompt with ${JSON.stringify(short(text))}`
    : d.type === "beforeunload"
    ? "leave the page"
    : `accept the ${d.type} dialog ${JSON.stringify(short(d.message))}`;
  return wordsRisk(d.message, action, `it asks ${JSON.stringify(short(d.message))}`);
}

/** The risk `text` names by its words (pay, delete, send…), as `action` for `reason`; if any. */
function wordsRisk(text: string, action: string, reason: string): Risk | undefined {
  for (const [category, re] of Object.entries(ACTION_WORDS)) {
    if (re.test(text)) return { category: category as RiskCategory, action, reason };
  }
  return undefined;
}

function enterRisk(target: Located, state: BrowserState, action: string): Risk | undefined {
  const el = target.element;
  const name = `${el.label} ${el.attrs.join(" ")}`;
  if (SEARCH_WORDS.test(name) || el.attrs.includes("type=search")) return undefined;
  const sign = paymentSign(state, target.index, "commits");
  if (sign) return { category: "payment", action, reason: `Enter submits a form and ${sign}` };
  if (MESSAGE_FIELD.test(name)) {
    return {
      category: "sending",
      action,
      reason: `Enter sends what was written in ${JSON.stringify(short(el.label || el.tag))}`,
    };
  }
  if (accountPage(state) && el.attrs.some((a) => /^type=(password|email)$/.test(a))) {
    return { category: "account", action, reason: "Enter submits a form on an account page" };
  }
  return undefined;
}

function isField(el: ObservedElement): boolean {
  return el.tag === "input" || el.tag === "textarea" || el.tag === "select" ||
    ["textbox", "combobox", "searchbox"].includes(el.role);
}

function isSubmit(el: ObservedElement): boolean {
  return el.attrs.some((a) => a === "type=submit" || a === "type=image");
}

function accountPage(state: BrowserState): boolean {
  let path = "";
  try {
    path = new URL(state.url).pathname.replace(/[/_-]+/g, " ");
  } catch {
    path = ""; // no path
  }
  return ACCOUNT_PAGE.test(`${state.title} ${path}`);
}

function short(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > 60 ? `${t.slice(0, 59)}…` : t;
}
