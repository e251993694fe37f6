/**
 * Secrets the user trusted the agent with: the model sees only `{{secret:NAME}}`; the real value
 * is put in when typing, and masked everywhere text leaves the agent (prompts, history, results,
 * progress lines, the final answer).
 *
 * @example
 * ```ts
 * const vault = new SecretVault({ PASSWORD: "hunter2" });
 * vault.reveal("{{secret:PASSWORD}}"); // "hunter2"
 * vault.mask('value="hunter2"'); // 'value="{{secret:PASSWORD}}"'
 * ```
 */
export class SecretVault {
  readonly #byName: Map<string, string>;
  /** [needle, placeholder], longest needle first so overlapping values mask whole. */
  readonly #needles: [string, string][];

  constructor(secrets: Readonly<Record<string, string>> = {}) {
    this.#byName = new Map();
    const needles: [string, string][] = [];
    for (const [name, value] of Object.entries(secrets)) {
      if (!value) continue;
      this.#byName.set(name.toLowerCase(), value);
      const placeholder = SecretVault.placeholder(name);
      const forms = new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]);
      forms.add(new URLSearchParams({ v: value }).toString().slice(2));
      for (const form of forms) needles.push([form, placeholder]);
    }
    this.#needles = needles.sort((a, b) => b[0].length - a[0].length);
  }

  /** `{{secret:NAME}}`: what the model sees and types. */
  static placeholder(name: string): string {
    return `{{secret:${name}}}`;
  }

  /** How many secrets are configured. */
  get size(): number {
    return this.#byName.size;
  }

  /** The placeholders the model may use, for the task text. */
  placeholders(): string[] {
    return this.#needles.length === 0
      ? []
      : [...new Set(this.#needles.map(([, placeholder]) => placeholder))];
  }

  /** Replaces placeholders with the real values; unknown names throw a RangeError for the model. */
  reveal(text: string): string {
    return text.replace(/\{\{\s*secret\s*:\s*([\w.-]+)\s*\}\}/gi, (_, name: string) => {
      const value = this.#byName.get(name.toLowerCase());
      if (value === undefined) {
        const known = this.placeholders().join(", ") || "none";
        throw new RangeError(`Unknown secret "${name}": the secrets you may type are ${known}`);
      }
      return value;
    });
  }

  /** True when the text holds a placeholder. */
  static mentions(text: string): boolean {
    return /\{\{\s*secret\s*:/i.test(text);
  }

  /** Replaces every occurrence of a secret value (plain, URL- or JSON-encoded) by its placeholder. */
  mask(text: string): string {
    let out = text;
    for (const [needle, placeholder] of this.#needles) {
      if (out.includes(needle)) out = out.split(needle).join(placeholder);
    }
    return out;
  }

  /** Masks every string inside a JSON-like value (a copy; the input is left alone). */
  maskDeep<T>(value: T): T {
    if (this.#needles.length === 0) return value;
    if (typeof value === "string") return this.mask(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.maskDeep(v)) as T;
    if (value && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.maskDeep(v);
      return out as T;
    }
    return value;
  }
}
