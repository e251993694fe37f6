import { SecretMask } from "../entity/mod.ts";

/**
 * Secrets the user trusted the agent with: the model sees only `{{secret:NAME}}`; the real value
 * is put in when typing, and masked everywhere text leaves the agent (prompts, history, results,
 * progress lines, the final answer) by the one {@link SecretMask}.
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
  readonly #mask: SecretMask;

  constructor(secrets: Readonly<Record<string, string>> = {}) {
    this.#byName = new Map();
    for (const [name, value] of Object.entries(secrets)) {
      if (value) this.#byName.set(name.toLowerCase(), value);
    }
    this.#mask = new SecretMask(secrets);
  }

  /** `{{secret:NAME}}`: what the model sees and types. */
  static placeholder(name: string): string {
    return SecretMask.placeholder(name);
  }

  /** How many secrets are configured. */
  get size(): number {
    return this.#byName.size;
  }

  /** The placeholders the model may use, for the task text. */
  placeholders(): string[] {
    return this.#mask.placeholders;
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

  /** Masks every secret value in every form {@link SecretMask} knows. */
  mask(text: string): string {
    return this.#mask.text(text);
  }

  /** Masks every string inside a JSON-like value (a copy; with no secrets, the value itself). */
  maskDeep<T>(value: T): T {
    return this.#mask.deep(value);
  }
}
