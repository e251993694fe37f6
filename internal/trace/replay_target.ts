import type { BrowserState, ElementIdentity, ObservedElement } from "../entity/mod.ts";
import { idOf } from "../tools/mod.ts";

/**
 * What a trace records about the element a step acted on, so that a replay can find it again by
 * meaning rather than by its old number: role, accessible name, attributes, and its position
 * among elements with the same role and name.
 */
export interface TargetRecord {
  /** The number it had when recorded (for people; replay does not use it). */
  id: number;
  tag: string;
  role: string;
  /** Accessible name or visible text. */
  name: string;
  attrs: string[];
  /** 0-based position among elements of the same role and name, in reading order. */
  nth: number;
  /** How many such elements the page had. */
  of: number;
  /**
   * What else identified it, for a replay to find it again after its text changed (absent in
   * traces recorded before, and when the page could not tell).
   */
  identity?: TargetIdentity;
}

/** An element's {@link ElementIdentity} as a trace records it. */
export interface TargetIdentity {
  /** The `id` attribute. */
  id?: string;
  /** `data-testid` or one of its usual variants. */
  test_id?: string;
  /** A form field's `name` attribute. */
  name?: string;
  /** Its place in the page: `tag.classes:N` steps from the outermost kept ancestor down. */
  path?: string[];
}

/**
 * Records the element a call's `id` argument points at in the observation it was chosen from,
 * with what identifies it (`identities`: from `BrowserPort.identify`, by element ID).
 *
 * @example
 * ```ts
 * recordTarget(state, { id: 12 }); // { id: 12, tag: "button", role: "button", name: "Go", nth: 0, of: 1, … }
 * ```
 */
export function recordTarget(
  state: BrowserState,
  args: Record<string, unknown>,
  identities?: ReadonlyMap<number, ElementIdentity>,
): TargetRecord | undefined {
  const id = idOf(args);
  if (id === undefined) return undefined;
  const elements = elementsOf(state);
  const element = elements.find((e) => e.id === id);
  if (!element) return undefined;
  const similar = elements.filter((e) => sameKind(e, element));
  const identity = identities?.get(id);
  return {
    id,
    tag: element.tag,
    role: roleOf(element),
    name: normalize(element.label),
    attrs: element.attrs,
    nth: similar.indexOf(element),
    of: similar.length,
    ...(identity ? { identity: traceIdentity(identity) } : {}),
  };
}

/** An identity as a trace records it: only what the page set, in the trace's spelling. */
export function traceIdentity(identity: ElementIdentity): TargetIdentity {
  return {
    ...(identity.id ? { id: identity.id } : {}),
    ...(identity.testId ? { test_id: identity.testId } : {}),
    ...(identity.name ? { name: identity.name } : {}),
    ...(identity.path.length ? { path: identity.path } : {}),
  };
}

/**
 * Finds a recorded target in a new observation: the `nth` element with the same role and name
 * (and, for unnamed elements, the same attributes). Returns its current ID, or undefined.
 */
export function findTarget(state: BrowserState, target: TargetRecord): number | undefined {
  const probe: ObservedElement = {
    tag: target.tag,
    role: target.role,
    attrs: target.attrs,
    label: target.name,
    states: [],
    id: 0,
  };
  const candidates = elementsOf(state).filter((e) => sameKind(e, probe));
  return candidates[target.nth]?.id;
}

/** `<button> "Add to cart"` (2nd of 3): for messages. */
export function describeTarget(target: TargetRecord): string {
  const where = target.of > 1 ? ` (${ordinal(target.nth + 1)} of ${target.of})` : "";
  return `${target.role} ${JSON.stringify(target.name || `<${target.tag}>`)}${where}`;
}

function elementsOf(state: BrowserState): ObservedElement[] {
  return state.lines.flatMap((l) => l.kind === "element" ? [l.element] : []);
}

/** The element has the role a target was recorded with (or the tag older recordings used). */
export function roleMatches(e: ObservedElement, recorded: string): boolean {
  return roleOf(e) === recorded || legacyRole(e, recorded);
}

function sameKind(a: ObservedElement, b: ObservedElement): boolean {
  if (!roleMatches(a, b.role)) return false;
  const name = normalize(b.label);
  if (normalize(a.label) !== name) return false;
  // Unnamed fields are told apart by what they show: placeholder, type, name.
  return name !== "" || identity(a) === identity(b);
}

function identity(e: ObservedElement): string {
  return e.attrs.filter((a) => /^(type|placeholder|name|role|aria-label)=/.test(a)).sort().join(
    " ",
  );
}

/**
 * Recordings made before observations kept the page's role named it from the tag: a generic
 * element by its tag, every text-like input `textbox`.
 */
function legacyRole(e: ObservedElement, recorded: string): boolean {
  return (e.role === "generic" && e.tag === recorded) ||
    (recorded === "textbox" && e.tag === "input");
}

/** The role the page gave the element (the observation keeps it). */
function roleOf(e: ObservedElement): string {
  return e.role;
}

function normalize(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function ordinal(n: number): string {
  const suffix = n % 10 === 1 && n % 100 !== 11
    ? "st"
    : n % 10 === 2 && n % 100 !== 12
    ? "nd"
    : n % 10 === 3 && n % 100 !== 13
    ? "rd"
    : "th";
  return `${n}${suffix}`;
}
