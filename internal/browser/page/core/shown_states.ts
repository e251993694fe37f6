/// <reference lib="dom" />
/**
 * States a page shows only by its look: the chosen tab, the current page of a pager, a pressed
 * toolbar button, the selected choice that turned green, the open or closed submenu or tree node.
 * ARIA says these when the page uses it; many pages say them only with a class (`active`,
 * `is-selected`) or a style. The rules are rows of {@link STATE_CLASSES}; {@link derivedStates} is
 * the one function the observation and the effect report use.
 *
 * @module
 */
import { UNDRAWN } from "./dom.ts";
import { docState } from "./state.ts";
import { noteRead } from "./reads.ts";

/** A state the view writes in braces. */
export type ShownState = "SELECTED" | "CURRENT" | "PRESSED" | "CHECKED";

/** Class tokens that say a state; `ACTIVE` is resolved by what the element is. */
export const STATE_CLASSES: readonly {
  token: RegExp;
  state: ShownState | "ACTIVE";
  example: string;
  reason: string;
}[] = [
  {
    token: /^(is-|has-)?selected$|[-_]selected$/,
    state: "SELECTED",
    example: "is-selected",
    reason: "says it is the chosen one",
  },
  {
    token: /^(is-)?current$|[-_]current$/,
    state: "CURRENT",
    example: "current",
    reason: "says it is where the user is",
  },
  {
    token: /^(is-)?pressed$|[-_]pressed$/,
    state: "PRESSED",
    example: "is-pressed",
    reason: "says a toggle button is down",
  },
  {
    token: /^(is-)?checked$|[-_]checked$/,
    state: "CHECKED",
    example: "is-checked",
    reason: "a custom checkbox drawn checked",
  },
  {
    token: /^(is-)?active$|[-_]active$/,
    state: "ACTIVE",
    example: "ql-active",
    reason: "the most common word for the chosen tab, page, link or pressed button",
  },
];

/** A token that says the opposite (`pagination_Not_Selected`, `unselected`, `non-current`). */
const NEGATED = /(^|[-_])(not|non|no)([-_]|$)|(^|[-_])un(selected|active|checked|pressed|current)$/;

/** The state a class token says, or null. */
export function classState(token: string): ShownState | "ACTIVE" | null {
  const t = token.toLowerCase();
  if (NEGATED.test(t)) return null;
  return STATE_CLASSES.find((r) => r.token.test(t))?.state ?? null;
}

/**
 * The one of a group that is active or selected: a link is the current page, a toolbar's button
 * is down, anything else is the chosen one.
 */
function activeState(el: Element, role: string): ShownState {
  if (role === "link") return "CURRENT";
  if (role === "button" && inToolbar(el)) return "PRESSED";
  return "SELECTED";
}

function inToolbar(el: Element): boolean {
  for (let p = el.parentElement, i = 0; p && i < 3; p = p.parentElement, i++) {
    if (p.getAttribute("role") === "toolbar") return true;
    for (const c of p.classList) if (/toolbar/i.test(c)) return true;
  }
  return false;
}

/** ARIA attributes that, when present at all, say the state themselves. */
const ARIA_STATES = ["aria-selected", "aria-current", "aria-pressed", "aria-checked"];

/** Groups of look-alike siblings this small or smaller are not compared (two can't tell). */
const MIN_GROUP = 3;
const MAX_GROUP = 60;

/**
 * The states `el` (of `role`) shows only by its look: a state class on it or on the wrapper it
 * alone fills (`<li class="active"><a>`), or a look that sets it apart from its siblings that all
 * look the same, when that look changed since the page was first observed (a script set its
 * class or style: a choice that turned green) or is set by its own style attribute. Nothing when
 * ARIA says the state or the element is a native toggle. `lookChanged`: the caller saw `el`'s
 * look change (the effect report, around a click).
 */
export function derivedStates(el: Element, role: string, lookChanged = false): ShownState[] {
  if (ARIA_STATES.some((a) => el.hasAttribute(a))) return [];
  const tag = el.localName;
  if (tag === "input" || tag === "option" || tag === "select") return [];
  const wrapper = wrapperOf(el);
  for (const holder of wrapper ? [el, wrapper] : [el]) {
    for (const token of holder.classList) {
      const state = classState(token);
      if (state) {
        return [state === "ACTIVE" || state === "SELECTED" ? activeState(el, role) : state];
      }
    }
  }
  for (const holder of wrapper ? [el, wrapper] : [el]) {
    const changed = lookChanged || restyled(holder);
    // A look the page was loaded with is its design (a primary button), unless set on the
    // element itself; a class saying hover or focus is the pointer's.
    if (!changed && !holder.hasAttribute("style")) continue;
    if (POINTER_CLASS.test(holder.getAttribute("class") ?? "")) continue;
    if (setApart(holder, changed, lookChanged) && !animated(holder)) return [activeState(el, role)];
  }
  return [];
}

/**
 * The element `el` alone fills: its parent with no other child, or the host of a shadow root it
 * alone draws (a tab component's button, whose host takes the page's `active` class).
 */
function wrapperOf(el: Element): Element | null {
  const parent = el.parentNode;
  if (parent?.nodeType === 11) {
    for (const c of (parent as ShadowRoot).children) {
      if (c !== el && !UNDRAWN.has(c.localName)) return null;
    }
    return (parent as ShadowRoot).host;
  }
  const p = el.parentElement;
  return p && p.childElementCount === 1 && p !== document.body ? p : null;
}

/** Classes scripts add while the pointer or the focus is on an element. */
const POINTER_CLASS = /hover|focus/i;

/**
 * Class tokens that say an element is moving or waiting, not chosen: a look it takes with one
 * of them is the animation's, never a state (matched on each token in lower case).
 */
export const ANIMATION_CLASSES: readonly { token: RegExp; example: string; reason: string }[] = [
  {
    token: /(^|[-_])(spin|spins|spinning|spinner)$/,
    example: "fa-spin",
    reason: "a spinning icon or button (a moving target)",
  },
  {
    token: /(^|[-_])(rotate|rotating|rotation)$/,
    example: "rotating",
    reason: "turning while something runs",
  },
  {
    token: /(^|[-_])(loading|busy|pending|progress)$/,
    example: "is-loading",
    reason: "waiting for work, not chosen",
  },
  {
    token: /(^|[-_])(pulse|pulsing|shake|bounce|blink|wobble|flash|animated?|animating)$/,
    example: "animate__bounce",
    reason: "an attention animation (animate.css and the like)",
  },
];

/**
 * Whether `el` is animated: by a class (a row of {@link ANIMATION_CLASSES}) or a running keyframe
 * animation.
 */
export function animated(el: Element): boolean {
  for (const token of el.classList) {
    const t = token.toLowerCase();
    if (ANIMATION_CLASSES.some((r) => r.token.test(t))) return true;
  }
  // A keyframe animation moves it; a transition only eases a change of look (a choice that fades
  // to green) and says nothing.
  return el.getAnimations?.().some((a) =>
    a.playState === "running" && typeof CSSAnimation !== "undefined" && a instanceof CSSAnimation
  ) ?? false;
}

/** Whether a script changed `el`'s class or style since the page was first observed. */
function restyled(el: Element): boolean {
  return docState().cache?.restyled(el) ?? false;
}

/** The style properties a chosen item is told apart by. */
const LOOK = [
  "background-color",
  "color",
  "font-weight",
  "text-decoration-line",
  "border-top-color",
  "border-bottom-color",
  "border-bottom-width",
];
/** Of those, the ones a first or last item may lose or gain by its place alone. */
const EDGE = new Set(["border-top-color", "border-bottom-color", "border-bottom-width"]);

/**
 * `el`'s look as one string: the {@link LOOK} properties, less those the pointer or focus may be
 * changing on it now (its `:hover` and `:focus` rules); null when that cannot be told.
 */
export function lookOf(el: Element): string | null {
  const known = memo?.looks.get(el);
  if (known !== undefined) return known;
  const look = readLook(el);
  memo?.looks.set(el, look);
  return look;
}

function readLook(el: Element): string | null {
  const skip = pointerProps(el);
  if (skip === null) return null;
  const s = getComputedStyle(el);
  return LOOK.map((p) => (skip.has(p) ? "" : s.getPropertyValue(p))).join("|");
}

/**
 * Whether `el` looks unlike its siblings, which all look alike. A look that changed (`changed`)
 * is compared with the siblings of the same tag and role, whatever their classes (a choice takes
 * a class when chosen), one of them enough unless it changed too (which of two is chosen is then
 * unclear) and `seen` (the caller watched the change) does not settle it; any other look only
 * with at least two siblings of the same classes.
 */
function setApart(el: Element, changed: boolean, seen: boolean): boolean {
  const parent = el.parentElement;
  if (!parent) return false;
  noteRead(parent);
  const min = changed ? 2 : MIN_GROUP;
  const n = parent.childElementCount;
  if (n < min || n > 2 * MAX_GROUP) return false;
  const group = groupOf(parent, changed ? looseKind(el) : kindOf(el));
  if (group.length < min || group.length > MAX_GROUP) return false;
  if (group.length === 2 && !seen && restyled(group[0] === el ? group[1]! : group[0]!)) {
    return false;
  }
  const edge = el === group[0] || el === group[group.length - 1];
  const look = (e: Element) => {
    const l = lookOf(e);
    if (l === null || !edge) return l;
    return l.split("|").map((v, i) => (EDGE.has(LOOK[i]!) ? "" : v)).join("|");
  };
  const own = look(el);
  if (own === null) return false;
  let others: string | null = null;
  const off = disabled(el);
  for (const sib of group) {
    if (sib === el) continue;
    // Enabled among disabled ones (or the reverse) looks apart by that alone: not chosen.
    if (disabled(sib) !== off) return false;
    const l = look(sib);
    if (l === null || (others !== null && l !== others)) return false;
    others = l;
  }
  return others !== null && others !== own;
}

/**
 * Whether `el` is disabled, natively, by ARIA or by a class (`disabled`, `is-disabled`): an
 * `Undo` button enabled among greyed ones is not pressed (report rule `state-shown`).
 */
function disabled(el: Element): boolean {
  if (el.matches(":disabled") || el.getAttribute("aria-disabled") === "true") return true;
  for (const c of el.classList) if (/(^|[-_])disabled$/i.test(c)) return true;
  return false;
}

/** Tag, role and classes without state tokens: what makes siblings look-alikes. */
/** The children of `parent` of one kind (per walk, each parent's groups are made once). */
function groupOf(parent: Element, kind: string): Element[] {
  let groups = memo?.groups.get(parent);
  if (!groups) {
    groups = new Map();
    for (const child of parent.children) {
      for (const k of [kindOf(child), looseKind(child)]) {
        const list = groups.get(k);
        if (list) list.push(child);
        else groups.set(k, [child]);
      }
    }
    memo?.groups.set(parent, groups);
  }
  return groups.get(kind) ?? [];
}

function kindOf(el: Element): string {
  const cls = el.getAttribute("class") ?? "";
  const classes = STATE_WORDS.test(cls)
    ? [...el.classList].filter((c) => !classState(c)).sort().join(" ")
    : cls.trim();
  return `${el.localName} ${el.getAttribute("role") ?? ""} ${classes}`;
}

/** Tag and role only: siblings a changed look is compared with. */
function looseKind(el: Element): string {
  return `~${el.localName} ${el.getAttribute("role") ?? ""}`;
}

/** A class attribute without these words holds no state class (the quick way past most). */
const STATE_WORDS = /select|current|press|check|active/i;

/**
 * The {@link LOOK} properties that `:hover`, `:focus` or `:active` rules may be setting on `el`
 * now (it is hovered or focused), read from its style sheets; none when it is neither; null when
 * a sheet cannot be read (another origin's).
 */
function pointerProps(el: Element): Set<string> | null {
  if (!el.matches(":hover, :focus-within, :active")) return new Set();
  const rules = pointerRules(el.getRootNode() as Document | ShadowRoot);
  if (rules === null) return null;
  const out = new Set<string>();
  for (const { selector, props } of rules) {
    try {
      if (el.matches(selector)) { for (const p of props) out.add(p); }
    } catch {
      return null; // a selector this engine cannot test: the look cannot be trusted
    }
  }
  return out;
}

type PointerRule = { selector: string; props: string[] };

/**
 * What a walk has read already, as the page does not change while it runs: each tree's pointer
 * rules, each parent's groups of look-alike children, each element's look. Null outside a walk
 * (the effect report's calls read afresh).
 */
let memo: {
  sheets: WeakMap<Document | ShadowRoot, PointerRule[] | null>;
  groups: WeakMap<Element, Map<string, Element[]>>;
  looks: WeakMap<Element, string | null>;
} | null = null;

/** Runs `walk` with one reading of style sheets, groups and looks for all its elements. */
export function withLookIndex<T>(walk: () => T): T {
  const outer = memo;
  memo = { sheets: new WeakMap(), groups: new WeakMap(), looks: new WeakMap() };
  try {
    return walk();
  } finally {
    memo = outer;
  }
}

function pointerRules(root: Document | ShadowRoot): PointerRule[] | null {
  if (memo?.sheets.has(root)) return memo.sheets.get(root)!;
  const out: PointerRule[] | null = [];
  let readable = true;
  const visit = (list: CSSRuleList) => {
    for (const rule of list) {
      if (rule instanceof CSSStyleRule && /:(hover|focus|active)/.test(rule.selectorText)) {
        const props = LOOK.filter((p) => rule.style.getPropertyValue(p) !== "");
        const selector = rule.selectorText.replace(
          /:(hover|focus-visible|focus-within|focus|active)/g,
          "",
        );
        if (props.length) {
          out.push({ selector: selector.replace(/(^|[\s,>+~])(?=,|$)/g, "$1*"), props });
        }
      } else if ("cssRules" in rule) visit((rule as CSSGroupingRule).cssRules);
    }
  };
  for (const sheet of [...root.styleSheets, ...root.adoptedStyleSheets]) {
    try {
      visit(sheet.cssRules);
    } catch {
      readable = false; // another origin's sheet
    }
  }
  const result = readable ? out : null;
  memo?.sheets.set(root, result);
  return result;
}

/** Lists that open under an item: a submenu, a tree node's children. */
const SUBLIST = "ul, ol, [role=group], [role=menu], [role=tree]";

/**
 * `EXPANDED` or `COLLAPSED` for the control that heads an item whose sub-list follows it (a
 * submenu's parent link, a tree node's toggle) when ARIA does not say; [] otherwise.
 */
export function derivedExpansion(el: Element): ("EXPANDED" | "COLLAPSED")[] {
  const item = el.parentElement;
  if (!el.nextElementSibling || !item?.matches("li, [role=treeitem], [role=menuitem]")) return [];
  let sub: Element | null = null;
  for (let s: Element | null = el.nextElementSibling; s && !sub; s = s.nextElementSibling) {
    if (s.matches(SUBLIST)) sub = s;
    else if (s.querySelector(":scope > ul, :scope > ol")) sub = s;
  }
  if (!sub) return [];
  noteRead(sub);
  const r = sub.getBoundingClientRect();
  const open = sub.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
    r.height > 0;
  return [open ? "EXPANDED" : "COLLAPSED"];
}
