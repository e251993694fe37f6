/**
 * The one masking of secrets, for every output (model requests, trace, report, stdout and
 * stderr, the live view, MCP results, JUnit): a secret's value in the forms a page or a program
 * commonly turns it into.
 *
 * @module
 */
import { HIDDEN } from "./url_credentials.ts";

/** The shortest value whose encodings and reversed form are looked for too. */
const MIN_FORMS = 4;

/**
 * The shortest value whose spaced-out forms are looked for: a shorter one spaced out would be
 * any short number (`1-2-3-4`).
 */
const MIN_SPACED = 6;

/** What may stand between a secret's characters in a spaced-out form (`h u n t e r 2`, `h-u-n`). */
const SPACER = "[\\s\\-_.,·|/*+:;]{0,3}";

/**
 * Replaces secrets' values by a placeholder wherever they show: as written, URL-encoded
 * (`%20` and `+`), JSON-escaped, in HTML entities (named, decimal, hexadecimal), in base64 and
 * base64url (at any alignment inside a longer base64 text), in hexadecimal, reversed, and
 * spaced out or in another case (`H U N T E R 2`, `HUNTER2`). Literal forms are looked for
 * longest first, then the spaced ones, all in one regular expression: the cost is one pass over
 * the text. Values given as `hidden` (a remote browser's token, from `urlCredentials` of its
 * address) read `••••`. A page's own addresses are left alone (a reset link's token is the
 * page's, and the model may need to follow it).
 *
 * @example
 * ```ts
 * const mask = new SecretMask({ PW: "hunter2" });
 * mask.text("pw=aHVudGVyMg== and 2retnuh"); // "pw={{secret:PW}}== and {{secret:PW}}"
 * ```
 */
export class SecretMask {
  /** Every form of every secret (and the placeholders, kept as they are), as one expression. */
  readonly #pattern: RegExp | undefined;
  /** What each literal form, or each secret's spaced forms (by index), is replaced by. */
  readonly #byForm = new Map<string, string>();
  readonly #bySpaced: string[] = [];
  readonly #forms: string[];

  /**
   * `secrets`: NAME → value, each shown as `{{secret:NAME}}`; `hidden`: values shown as `••••`
   * (a remote browser's token from its address).
   */
  constructor(
    secrets: Readonly<Record<string, string>> = {},
    options: { hidden?: readonly string[] } = {},
  ) {
    const spaced: string[] = [];
    const add = (value: string, placeholder: string) => {
      if (!value) return;
      for (const form of secretForms(value)) {
        if (!this.#byForm.has(form)) this.#byForm.set(form, placeholder);
      }
      const expression = spacedForms(value);
      if (expression) spaced.push(expression), this.#bySpaced.push(placeholder);
    };
    for (const [name, value] of Object.entries(secrets)) add(value, SecretMask.placeholder(name));
    for (const value of options.hidden ?? []) add(value, HIDDEN);
    // Longest first, so a value inside a longer one masks whole.
    this.#forms = [...this.#byForm.keys()].sort((a, b) => b.length - a.length);
    if (this.#forms.length === 0) return;
    const literal = this.#forms.map(escape).join("|");
    const groups = spaced.map((e) => `(${e})`).join("|");
    this.#pattern = new RegExp(
      `${KEPT.source}|${literal}${groups ? `|${groups}` : ""}`,
      "gu",
    );
  }

  /** `{{secret:NAME}}`: what the model sees and types. */
  static placeholder(name: string): string {
    return `{{secret:${name}}}`;
  }

  /** The placeholders of the secrets, the longest value first. */
  get placeholders(): string[] {
    const all = this.#forms.map((form) => this.#byForm.get(form)!);
    return [...new Set(all)].filter((p) => p !== HIDDEN);
  }

  /** The literal forms looked for (the screenshots paint these over where a page shows them). */
  get forms(): string[] {
    return [...this.#forms];
  }

  /** `text` with every secret, in every form looked for, masked. */
  text(text: string): string {
    if (!this.#pattern) return text;
    // One pass: what it writes is never looked at again (a value may be a word of a placeholder).
    return text.replace(this.#pattern, (found: string, ...groups: unknown[]) => {
      const literal = this.#byForm.get(found);
      if (literal !== undefined) return literal;
      const at = groups.slice(0, this.#bySpaced.length).findIndex((g) => g !== undefined);
      return at >= 0 ? this.#bySpaced[at]! : found; // a placeholder, kept
    });
  }

  /**
   * Masks every string inside a JSON-like value: a copy, the input left alone; with no secret to
   * look for, the value itself (a whole page's view is not copied for nothing each step).
   */
  deep<T>(value: T): T {
    if (!this.#pattern) return value;
    if (typeof value === "string") return this.text(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.deep(v)) as T;
    if (value && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.deep(v);
      return out as T;
    }
    return value;
  }
}

/** Placeholders already written: matched first, so they are kept as they are. */
const KEPT = /\{\{secret:[\w.-]+\}\}|••••/;

/** `text` as a literal in an expression. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** The literal forms of a secret's value looked for in text. */
function secretForms(value: string): string[] {
  const forms = new Set([value, JSON.stringify(value).slice(1, -1), btoa(binary(value))]);
  forms.add(encodeURIComponent(value));
  forms.add(new URLSearchParams({ v: value }).toString().slice(2));
  forms.add(htmlEscaped(value));
  if (value.length >= MIN_FORMS) {
    const chars = [...value];
    forms.add(chars.map((c) => `&#${c.codePointAt(0)};`).join(""));
    forms.add(chars.map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join(""));
    forms.add([...chars].reverse().join(""));
    const bytes = new TextEncoder().encode(value);
    const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    forms.add(hex).add(hex.toUpperCase());
    for (const core of base64Cores(bytes)) {
      forms.add(core).add(core.replace(/\+/g, "-").replace(/\//g, "_"));
    }
  }
  return [...forms].filter((f) => f.length > 0);
}

function htmlEscaped(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/**
 * The base64 characters that `bytes` alone decide, at each of the three alignments it may have
 * inside a longer text (0, 1 or 2 bytes before it in its group of three): a secret encoded with
 * text around it still shows these.
 */
function base64Cores(bytes: Uint8Array): string[] {
  const out: string[] = [];
  for (let before = 0; before < 3; before++) {
    const padded = new Uint8Array(before + bytes.length);
    padded.set(bytes, before);
    const whole = btoa(String.fromCharCode(...padded)).replace(/=+$/, "");
    // Characters whose six bits include a byte before it, or one after it, are not its own.
    const first = Math.ceil((before * 8) / 6);
    const last = Math.floor((padded.length * 8) / 6);
    const core = whole.slice(first, last);
    if (core.length >= MIN_FORMS) out.push(core);
  }
  return out;
}

/**
 * One expression (its source) for the value spaced out (`h u n t e r 2`, `h-u-n-t-e-r-2`) or
 * reversed that way, in any case; undefined for a value too short to be told from ordinary words.
 */
function spacedForms(value: string): string | undefined {
  const chars = [...value].filter((c) => !/\s/.test(c));
  if (chars.length < MIN_SPACED) return undefined;
  const anyCase = (c: string) => {
    const lower = c.toLowerCase(), upper = c.toUpperCase();
    return lower !== upper && [...lower].length === 1 && [...upper].length === 1
      ? `[${escape(lower)}${escape(upper)}]`
      : escape(c);
  };
  const joined = (cs: string[]) => cs.map(anyCase).join(SPACER);
  return `${joined(chars)}|${joined([...chars].reverse())}`;
}

/** The UTF-8 bytes of `text` as a binary string, for `btoa`. */
function binary(text: string): string {
  return String.fromCharCode(...new TextEncoder().encode(text));
}
