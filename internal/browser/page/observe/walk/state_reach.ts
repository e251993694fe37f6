/// <reference lib="dom" />
/**
 * How far a change of an element's pointer or focus state (`:hover`, `:focus`, `:focus-within`,
 * `:focus-visible`, `:active`) may restyle the page, as its style sheets tell (`walk_cache.ts`):
 * the pointer entering a card restyles nothing but that card's line when no rule says
 * otherwise, and the walk then replays the rest of the page.
 *
 * A rule `A:hover B` restyles what lies inside the element that matches `A` (its subtree), one
 * `A:hover + B` or `A:hover ~ B` what follows it (its parent's subtree). So an element whose state
 * changed reaches as far as the rules whose part up to the state (`A`, the state left out, a
 * wider match) it matches say. A state inside `:has()` restyles around the element (the whole
 * page is walked again); a rule the sheets cannot tell about (another origin's sheet, a state
 * inside `:host()` or `::slotted()`, nested rules) reaches the element's subtree, as every state
 * change did before. The rules are read again when a tree's sheets change (`sheets.ts`'s print,
 * with its known limit: a rule inserted inside an `@media` block is seen with the next change).
 *
 * @module
 */
import { composedParent } from "../../core/dom.ts";
import { printSheet } from "./sheets.ts";

/**
 * How far a state change of an element restyles: none but its own line, its subtree, its
 * parent's, the whole page (a state inside `:has()` restyles the elements around the one whose
 * state changed: all of them are walked again).
 */
export const REACH = { line: 0, subtree: 1, siblings: 2, page: 3 } as const;
/** One of {@link REACH}: the larger, the more a state change restyles. */
export type Reach = typeof REACH[keyof typeof REACH];

/**
 * The elements whose pointer or focus state changes when it passes from `from` to `to`: those on
 * one's chain of ancestors (shadow hosts included) and not on the other's.
 */
export function stateChanged(from: Node | null, to: Node | null): Element[] {
  const chain = (n: Node | null) => {
    const out = new Set<Node>();
    for (; n; n = composedParent(n)) out.add(n);
    return out;
  };
  const a = chain(from), b = chain(to), out: Element[] = [];
  for (const [one, other] of [[a, b], [b, a]] as const) {
    // An element that left the page (the row a click deleted) restyles nothing that shows.
    for (const n of one) if (!other.has(n) && n instanceof Element && n.isConnected) out.push(n);
  }
  return out;
}

/** The innermost element under the pointer, in open shadow roots too; null when none. */
export function deepHovered(): Element | null {
  let el: Element | null = null;
  for (let root: ParentNode | null = document; root;) {
    const inner: Element | undefined = [...root.querySelectorAll(":hover")].at(-1);
    if (!inner) break;
    el = inner;
    root = inner.shadowRoot;
  }
  return el;
}

/** A state pseudo-class, where it stands in a selector. */
const STATE = /:(?:hover|focus-within|focus-visible|focus|active)(?![\w-])/i;
/** Functions in which a state says something of another element than the compound's own. */
const FOREIGN = /:(?:has|host|host-context)\(|::(?:slotted|part)\(/i;

/** What one rule tells: elements matching `prefix` reach `reach` when their state changes. */
interface StateRule {
  prefix: string;
  reach: Reach;
}

/** The rules of one tree (the document or a shadow root), and the print they were read at. */
interface TreeRules {
  print: string;
  /** Null: some rule cannot be told about (every state change reaches the subtree). */
  rules: StateRule[] | null;
}

/** The state rules of each tree, read again when its sheets change. */
export class StateReach {
  readonly #trees = new WeakMap<Document | ShadowRoot, TreeRules>();

  /** How far a change of `el`'s pointer or focus state restyles. */
  reach(el: Element): Reach {
    const root = el.getRootNode();
    if (!(root instanceof Document || root instanceof ShadowRoot)) return REACH.line;
    const rules = this.#rules(root);
    // A shadow tree's own rules (`:host(:hover)`, closed ones too) and `::slotted()`, `::part()`
    // rules of the trees around restyle it unseen from here.
    const unseen = rules === null || !!el.shadowRoot || el.localName.includes("-") ||
      !!el.assignedSlot || el.hasAttribute("part");
    let reach: Reach = unseen ? REACH.subtree : REACH.line;
    for (const r of rules ?? []) {
      if (r.reach <= reach) continue;
      try {
        if (el.matches(r.prefix)) reach = r.reach;
      } catch {
        reach = Math.max(reach, REACH.subtree) as Reach; // a selector not testable alone
      }
      if (reach === REACH.page) break;
    }
    return reach;
  }

  #rules(root: Document | ShadowRoot): StateRule[] | null {
    const sheets = [...root.styleSheets, ...root.adoptedStyleSheets];
    const numbers: number[] = [];
    for (const sheet of sheets) printSheet(sheet, numbers);
    const print = numbers.join(",");
    const known = this.#trees.get(root);
    if (known?.print === print) return known.rules;
    const rules = readRules(sheets);
    this.#trees.set(root, { print, rules });
    return rules;
  }
}

/** The state rules of `sheets`; null when one cannot be read or told about. */
function readRules(sheets: CSSStyleSheet[]): StateRule[] | null {
  const out: StateRule[] = [];
  const visit = (list: CSSRuleList, nested: boolean): boolean => {
    for (const rule of list) {
      if (rule instanceof CSSStyleRule) {
        const inner = rule.cssRules?.length > 0;
        if (STATE.test(rule.selectorText)) {
          // A nested rule's selector stands on its parent's (`&`): not told about.
          if (nested || inner) return false;
          for (const complex of splitTop(rule.selectorText, ",")) {
            const rules = stateRules(complex);
            if (rules === null) return false;
            out.push(...rules);
          }
        }
        if (inner && !visit(rule.cssRules, true)) return false;
      } else if (scopedByState(rule)) {
        return false; // `@scope (.card:hover)`: the scope itself follows a state
      } else if (rule instanceof CSSImportRule) {
        if (!rule.styleSheet || !readable(rule.styleSheet, (l) => visit(l, nested))) return false;
      } else if ("cssRules" in rule && !visit((rule as CSSGroupingRule).cssRules, nested)) {
        return false;
      }
    }
    return true;
  };
  for (const sheet of sheets) {
    if (sheet.disabled) continue;
    if (!readable(sheet, (l) => visit(l, false))) return null;
  }
  return out;
}

/** Runs `f` on the sheet's rules; false when they cannot be read (another origin's) or `f` says so. */
function readable(sheet: CSSStyleSheet, f: (rules: CSSRuleList) => boolean): boolean {
  let rules: CSSRuleList;
  try {
    rules = sheet.cssRules;
  } catch {
    return false;
  }
  return f(rules);
}

/**
 * The rules one complex selector gives, one per compound with a state (`.a:hover + .b:focus .c`
 * gives two): the part up to that compound, every state in it left out, and how far that state
 * reaches; none when it has no state; null when it cannot be told about.
 */
function stateRules(complex: string): StateRule[] | null {
  if (!STATE.test(complex)) return [];
  const parts = compounds(complex);
  if (!parts) return null;
  const out: StateRule[] = [];
  for (let at = 0; at < parts.length; at++) {
    const c = parts[at]!.compound;
    if (!STATE.test(c)) continue;
    const foreign = FOREIGN.test(c) ? foreignState(c) : null;
    if (foreign === "has") return [{ prefix: "*", reach: REACH.page }];
    if (foreign) return null;
    const after = parts[at + 1]?.combinator;
    out.push({
      prefix: prefixUpTo(parts, at),
      reach: after === "+" || after === "~" ? REACH.siblings : REACH.subtree,
    });
  }
  return out;
}

/**
 * The selector of `parts` up to compound `last`, states left out (a wider match), `:host`
 * compounds as `*` (inside its shadow tree, `el.matches()` never matches `:host`), and the last
 * compound's pseudo-elements left out.
 */
function prefixUpTo(parts: { combinator: string; compound: string }[], last: number): string {
  const prefix: string[] = [];
  for (let i = 0; i <= last; i++) {
    const { combinator, compound } = parts[i]!;
    let c = /:host(?:-context)?(?![\w-])/i.test(compound) ? "*" : withoutStates(compound);
    if (i === last) {
      c = c.replace(
        /::?(?:before|after|first-line|first-letter|marker)\b|::[\w-]+(?:\([^)]*\))?/gi,
        "",
      );
    }
    prefix.push(`${i > 0 ? ` ${combinator} ` : ""}${c.trim() || "*"}`);
  }
  return prefix.join("");
}

/** Whether `rule` is an `@scope` whose start or end selector holds a state. */
function scopedByState(rule: CSSRule): boolean {
  const scope = rule as CSSRule & { start?: string | null; end?: string | null };
  if (!("start" in scope) && !("end" in scope)) return false;
  return STATE.test(`${scope.start ?? ""} ${scope.end ?? ""}`);
}

/** Whether a state stands inside a `:has()` ("has"), `:host()` or `::slotted()` of compound `c`. */
function foreignState(c: string): "has" | "other" | null {
  let found: "has" | "other" | null = null;
  for (const m of c.matchAll(new RegExp(FOREIGN.source, "gi"))) {
    const open = m.index! + m[0].length;
    const inner = c.slice(open, closing(c, open - 1));
    if (!STATE.test(inner)) continue;
    if (/^:has\(/i.test(m[0])) return "has";
    found = "other";
  }
  return found;
}

/**
 * Compound `c` with its states left out: a state standing alone, and any functional
 * pseudo-class holding one (`:not(:hover)`, `:is(.a:hover, .b)`), which widens the match.
 */
function withoutStates(c: string): string {
  let out = "";
  for (let i = 0; i < c.length;) {
    const fn = /^:[\w-]+\(/.exec(c.slice(i));
    if (fn) {
      const end = closing(c, i + fn[0].length - 1);
      const whole = c.slice(i, end + 1);
      if (!STATE.test(whole)) out += whole;
      i = end + 1;
      continue;
    }
    const state = new RegExp(`^${STATE.source}`, "i").exec(c.slice(i));
    if (state) {
      i += state[0].length;
      continue;
    }
    if (c[i] === "\\") {
      out += c.slice(i, i + 2); // an escaped character (`.hover\:underline`) is no state
      i += 2;
      continue;
    }
    if (c[i] === "[" || c[i] === '"' || c[i] === "'") {
      const end = c[i] === "[" ? closing(c, i) : c.indexOf(c[i]!, i + 1);
      out += c.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    out += c[i++];
  }
  return out;
}

/** The index of the bracket closing the one at `open` (`(` or `[`), quotes skipped. */
function closing(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '"' || ch === "'") i = Math.max(i, s.indexOf(ch, i + 1));
    else if (ch === "\\") i++;
    else if (ch === "(" || ch === "[") depth++;
    else if ((ch === ")" || ch === "]") && --depth === 0) return i;
  }
  return s.length - 1;
}

/** `s` split at `sep` outside brackets and quotes. */
function splitTop(s: string, sep: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === "(" || ch === "[") i = closing(s, i);
    else if (ch === '"' || ch === "'") i = Math.max(i, s.indexOf(ch, i + 1));
    else if (ch === "\\") i++;
    else if (ch === sep) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

/** A complex selector's compounds, each with the combinator before it; null when not understood. */
function compounds(complex: string): { combinator: string; compound: string }[] | null {
  const out: { combinator: string; compound: string }[] = [];
  let combinator = "", compound = "";
  const s = complex.trim();
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === "(" || ch === "[") {
      const end = closing(s, i);
      compound += s.slice(i, end + 1);
      i = end;
    } else if (ch === '"' || ch === "'") {
      const end = s.indexOf(ch, i + 1);
      if (end < 0) return null;
      compound += s.slice(i, end + 1);
      i = end;
    } else if (ch === "\\") {
      compound += s.slice(i, i + 2);
      i++;
    } else if (/[\s>+~]/.test(ch)) {
      let j = i;
      while (j < s.length && /\s/.test(s[j]!)) j++;
      const op = /[>+~]/.test(s[j] ?? "") ? s[j++]! : " ";
      while (j < s.length && /\s/.test(s[j]!)) j++;
      if (compound) out.push({ combinator, compound });
      else if (out.length || op !== " ") return null; // a combinator with nothing before it
      combinator = op;
      compound = "";
      i = j - 1;
    } else compound += ch;
  }
  if (!compound) return null;
  out.push({ combinator, compound });
  return out;
}
