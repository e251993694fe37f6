/// <reference lib="dom" />
/**
 * What identifies listed elements apart from their role and name: the `id`, a test id, a form
 * field's `name`, and the element's place in the page with its classes. A replay uses it to find
 * an element again after its text was changed.
 *
 * @module
 */
import { composedParent } from "../core/dom.ts";
import { elementByLocalId } from "../core/refs.ts";

/** The attributes that hold a test id, in the order they are read; the first one set wins. */
const TEST_ID_ATTRIBUTES: readonly [string, string][] = [
  ["data-testid", "React Testing Library, Playwright and Cypress's default"],
  ["data-test-id", "a common spelling of the same"],
  ["data-test", "Cypress's recommended alternative"],
  ["data-qa", "QA teams' convention"],
  ["data-cy", "Cypress's own"],
  ["data-pw", "Playwright users' convention"],
  ["data-e2e", "end-to-end suites' convention"],
  ["data-automation-id", "Selenium suites' and Microsoft's convention"],
  ["data-test-subj", "Elastic's convention"],
];

/** Tags whose `name` attribute names a form field (what the server receives). */
const FIELD_TAGS = new Set(["input", "select", "textarea", "button"]);
/**
 * Controls that share their `name` with others of their form and are told apart by their value:
 * a radio group's options, check boxes of one list, a form's buttons (`action=save`,
 * `action=delete`). They are named `name=value`, as the form sends them.
 */
const NAMED_BY_VALUE = new Set(["radio", "checkbox"]);
/** Input buttons whose value is their label: their name is their form's, not theirs. */
const LABELLED_BY_VALUE = new Set(["submit", "button", "reset", "image"]);

/** Ancestors kept in a path: enough to tell places apart, bounded for deep pages. */
const MAX_DEPTH = 16;
/** Classes kept per step, and the longest class kept (utility-class pages have dozens). */
const MAX_CLASSES = 8;
const MAX_CLASS = 40;
/** Longest id, test id or name kept. */
const MAX_VALUE = 200;

/** An element's identity as the page gives it (see `ElementIdentity`). */
export interface IdentityFacts {
  id?: string;
  testId?: string;
  name?: string;
  path: string[];
}

/**
 * The identities of the elements behind local IDs of the document with `token`, in the same
 * order; null for one that is gone (or when the document is another).
 */
export function elementIdentities(token: string, lids: number[]): (IdentityFacts | null)[] {
  return lids.map((lid) => {
    const el = elementByLocalId(token, lid);
    return el ? identityOf(el) : null;
  });
}

function identityOf(el: Element): IdentityFacts {
  const facts: IdentityFacts = { path: pathOf(el) };
  const id = attr(el, "id");
  if (id) facts.id = id;
  for (const [name] of TEST_ID_ATTRIBUTES) {
    const value = attr(el, name);
    if (value) {
      facts.testId = value;
      break;
    }
  }
  const name = fieldName(el);
  if (name) facts.name = name;
  return facts;
}

/** The name the form sends the field by; "" when it has none that is its own. */
function fieldName(el: Element): string {
  const tag = el.localName;
  if (!FIELD_TAGS.has(tag)) return "";
  const name = attr(el, "name");
  if (!name) return "";
  const type = tag === "input" ? (el as HTMLInputElement).type : "";
  if (LABELLED_BY_VALUE.has(type)) return "";
  // A radio button or check box without a value attribute sends "on".
  const value = tag === "input"
    ? (el as HTMLInputElement).value.trim().slice(0, MAX_VALUE)
    : attr(el, "value");
  return (NAMED_BY_VALUE.has(type) || tag === "button") && value ? `${name}=${value}` : name;
}

function attr(el: Element, name: string): string {
  return (el.getAttribute(name) ?? "").trim().slice(0, MAX_VALUE);
}

/** From the outermost kept ancestor down to `el`, the body and the root element left out. */
function pathOf(el: Element): string[] {
  const steps: string[] = [];
  for (let n: Node | null = el; n && steps.length < MAX_DEPTH; n = composedParent(n)) {
    if (!(n instanceof Element)) continue; // a shadow root: its host comes next
    if (n === document.body || n === document.documentElement) break;
    steps.push(stepOf(n));
  }
  return steps.reverse();
}

/** `div.card.wide:2`: tag, sorted classes, and its place among siblings with its tag. */
function stepOf(el: Element): string {
  const classes = [...new Set(Array.from(el.classList))]
    .filter((c) => c.length <= MAX_CLASS)
    .sort()
    .slice(0, MAX_CLASSES);
  let nth = 1;
  for (let s = el.previousElementSibling; s; s = s.previousElementSibling) {
    if (s.localName === el.localName) nth++;
  }
  return `${el.localName}${classes.map((c) => `.${c}`).join("")}${nth > 1 ? `:${nth}` : ""}`;
}
