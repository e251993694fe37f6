/**
 * The `totp` module: `totp_code(name)` gives the current RFC 6238 one-time code for a secret
 * configured as the variable `TOTP_<NAME>` (base32, e.g. from a `.env` file) or under
 * `"secrets"` in the module's settings, so the agent can pass a two-factor login. The secret
 * itself never reaches the model, the trace or the logs: only the code does.
 *
 * Settings (`modules/totp.json` or `moduleSettings.totp`): `secrets` (name → base32),
 * `digits` (6), `period` (30 s), `algorithm` (`SHA-1`, `SHA-256`, `SHA-512`).
 *
 * @module
 */
import type { AgentModule, ModuleResult, ModuleRuntime } from "../internal/modules/mod.ts";

/** How codes are made (RFC 6238 defaults: 6 digits, 30 s, SHA-1). */
export interface TotpOptions {
  digits: number;
  period: number;
  algorithm: "SHA-1" | "SHA-256" | "SHA-512";
}

const DEFAULTS: TotpOptions = { digits: 6, period: 30, algorithm: "SHA-1" };

/** A code with less time left than this is not handed out: the next one is waited for. */
const MIN_VALID_S = 3;

/**
 * The RFC 6238 code of `key` at `unixSeconds`.
 *
 * @example
 * ```ts
 * await totpCode(new TextEncoder().encode("12345678901234567890"), 59, { digits: 8, period: 30, algorithm: "SHA-1" }); // "94287082"
 * ```
 */
export async function totpCode(
  key: Uint8Array,
  unixSeconds: number,
  options: TotpOptions = DEFAULTS,
): Promise<string> {
  const counter = BigInt(Math.floor(unixSeconds / options.period));
  const message = new ArrayBuffer(8);
  new DataView(message).setBigUint64(0, counter);
  const hmacKey = await crypto.subtle.importKey(
    "raw",
    key.slice().buffer,
    { name: "HMAC", hash: options.algorithm },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", hmacKey, message));
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) |
    (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** options.digits).padStart(options.digits, "0");
}

/** Bytes of a base32 secret (spaces, dashes, padding and case ignored); throws without quoting it. */
export function base32Bytes(secret: string): Uint8Array {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const clean = secret.toUpperCase().replace(/[\s=-]/g, "");
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const index = alphabet.indexOf(ch);
    if (index < 0) throw new Error("the secret is not base32 (letters A–Z and digits 2–7)");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  if (out.length === 0) throw new Error("the secret is empty");
  return new Uint8Array(out);
}

let options: TotpOptions = DEFAULTS;
let configured: Record<string, string> = {};
let stopping: AbortSignal | undefined;

/** `TOTP_GITHUB` for `github`, `TOTP_MY_BANK` for `my-bank`. */
function variableOf(name: string): string {
  return `TOTP_${name.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}`;
}

function knownNames(): string[] {
  const fromEnv = Object.keys(Deno.env.toObject())
    .filter((k) => k.startsWith("TOTP_") && k.length > 5)
    .map((k) => k.slice(5).toLowerCase());
  return [...new Set([...Object.keys(configured), ...fromEnv])].sort();
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

const totp: AgentModule = {
  name: "totp",
  init(runtime: ModuleRuntime): Promise<void> {
    const s = runtime.settings;
    const algorithm = s.algorithm ?? DEFAULTS.algorithm;
    if (algorithm !== "SHA-1" && algorithm !== "SHA-256" && algorithm !== "SHA-512") {
      return Promise.reject(
        new Error(`"algorithm" ${JSON.stringify(algorithm)}: use SHA-1, SHA-256 or SHA-512`),
      );
    }
    const digits = s.digits ?? DEFAULTS.digits;
    const period = s.period ?? DEFAULTS.period;
    if (!Number.isInteger(digits) || (digits as number) < 6 || (digits as number) > 10) {
      return Promise.reject(new Error(`"digits" ${JSON.stringify(digits)}: use 6 to 10`));
    }
    if (!Number.isInteger(period) || (period as number) < 10 || (period as number) > 300) {
      return Promise.reject(new Error(`"period" ${JSON.stringify(period)}: use 10 to 300 seconds`));
    }
    options = { algorithm, digits: digits as number, period: period as number };
    const secrets = s.secrets ?? {};
    if (typeof secrets !== "object" || secrets === null || Array.isArray(secrets)) {
      return Promise.reject(new Error('"secrets" must map names to base32 secrets'));
    }
    configured = Object.fromEntries(
      Object.entries(secrets).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    stopping = runtime.signal;
    return Promise.resolve();
  },
  getToolDefinitions() {
    return [{
      type: "function",
      function: {
        name: "totp_code",
        description:
          "The current one-time code (two-factor, authenticator app) for an account, to type into a login's code field",
        parameters: {
          type: "object",
          properties: {
            name: {
              type: "string",
              description: "The account's name, e.g. github (its secret is TOTP_GITHUB)",
              maxLength: 64,
            },
          },
          required: ["name"],
        },
      },
      readOnly: true,
    }];
  },
  async executeToolCall(ctx, _tool, args): Promise<ModuleResult> {
    const name = String(args.name).trim().toLowerCase();
    const secret = configured[name] ?? Deno.env.get(variableOf(name));
    if (!secret) {
      const known = knownNames();
      return {
        error: {
          type: "not_found",
          message: `No one-time code secret named "${name}": set ${
            variableOf(name)
          } (base32) or add it to the totp settings`,
          context: { known },
        },
      };
    }
    let key: Uint8Array;
    try {
      key = base32Bytes(secret);
    } catch (error) {
      return {
        error: {
          type: "failed",
          message: `Cannot use the secret "${name}": ${(error as Error).message}`,
        },
      };
    }
    const signal = stopping ? AbortSignal.any([ctx.signal, stopping]) : ctx.signal;
    let now = Date.now() / 1000;
    let left = options.period - (now % options.period);
    if (left < MIN_VALID_S) {
      await wait(Math.ceil(left * 1000) + 50, signal);
      now = Date.now() / 1000;
      left = options.period - (now % options.period);
    }
    const code = await totpCode(key, now, options);
    const valid = Math.floor(left);
    return {
      text: `${code} (the one-time code for ${name}, valid for ${valid} more seconds)`,
      data: { code, validForSeconds: valid },
    };
  },
  shutdown(): Promise<void> {
    configured = {};
    return Promise.resolve();
  },
};

export default totp;
