import assert from "node:assert/strict";
import { base32Bytes, totpCode, type TotpOptions } from "../modules/totp.ts";
import { runCli } from "./support/run_cli.ts";
import { startScriptedModel } from "./support/scripted_model.ts";

const ascii = (s: string) => new TextEncoder().encode(s);

/** RFC 6238, appendix B: time, then the SHA-1, SHA-256 and SHA-512 codes (8 digits). */
const VECTORS: [number, string, string, string][] = [
  [59, "94287082", "46119246", "90693936"],
  [1111111109, "07081804", "68084774", "25091201"],
  [1111111111, "14050471", "67062674", "99943326"],
  [1234567890, "89005924", "91819424", "93441116"],
  [2000000000, "69279037", "90698825", "38618901"],
  [20000000000, "65353130", "77737706", "47863826"],
];

Deno.test("totp matches the RFC 6238 test vectors (SHA-1, SHA-256, SHA-512)", async () => {
  const keys: [TotpOptions["algorithm"], Uint8Array][] = [
    ["SHA-1", ascii("12345678901234567890")],
    ["SHA-256", ascii("12345678901234567890123456789012")],
    ["SHA-512", ascii("1234567890".repeat(6) + "1234")],
  ];
  for (const [time, ...codes] of VECTORS) {
    for (const [i, [algorithm, key]] of keys.entries()) {
      const code = await totpCode(key, time, { digits: 8, period: 30, algorithm });
      assert.equal(code, codes[i], `${algorithm} at ${time}`);
    }
    // Six digits are the last six of the eight.
    assert.equal(
      await totpCode(keys[0]![1], time, { digits: 6, period: 30, algorithm: "SHA-1" }),
      codes[0]!.slice(2),
    );
  }
});

Deno.test("base32 secrets decode with spaces and lower case; a bad one is refused without quoting it", () => {
  // "12345678901234567890" in base32.
  const b32 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
  assert.deepEqual(
    base32Bytes(b32.toLowerCase().replace(/(.{4})/g, "$1 ")),
    ascii("12345678901234567890"),
  );
  assert.throws(() => base32Bytes("NOT-BASE32!"), (e: Error) => !e.message.includes("NOT"));
});

Deno.test("the agent gets a code from totp_code; the secret is in no model request and not in the trace", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ba-totp-" });
  const secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
  try {
    await using model = startScriptedModel([
      { tool: "totp_code", args: { name: "GitHub" } },
      { tool: "totp_code", args: { name: "bank" } },
      { tool: "done", args: { result: "got it" } },
    ]);
    const out = `${dir}/run`;
    const run = await runCli({
      args: ["--module", "totp", "--out", out, "log in to github"],
      cwd: dir,
      env: { OPENAI_BASE_URL: model.baseUrl, XDG_DATA_HOME: `${dir}/data`, TOTP_GITHUB: secret },
    });
    assert.equal(run.code, 0, run.stderr);
    const now = Date.now() / 1000;
    const key = base32Bytes(secret);
    const codes = await Promise.all(
      [-60, -30, 0].map((d) => totpCode(key, now + d)),
    );
    const said =
      /totp_code\(name="GitHub"\) → (\d{6}) \(the one-time code for github, valid for \d+ more seconds\)/
        .exec(model.requests[1]!.user);
    assert.ok(said, model.requests[1]!.user);
    assert.ok(codes.includes(said[1]!), `${said[1]} not in ${codes}`);
    assert.match(
      model.requests[2]!.user,
      /ERROR: No one-time code secret named "bank": set TOTP_BANK/,
    );
    const everything = [
      ...model.requests.map((r) => JSON.stringify(r.body)),
      await Deno.readTextFile(`${out}/trace.jsonl`),
      await Deno.readTextFile(`${out}/report.html`),
      run.stdout,
      run.stderr,
    ].join("\n");
    for (const form of [secret, secret.toLowerCase(), "12345678901234567890"]) {
      assert.ok(!everything.includes(form), `the secret leaked as ${form}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
