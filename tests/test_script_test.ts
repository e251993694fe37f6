import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * Runs scripts/test.sh with a fake `deno` first on PATH that prints `check` and `test` output and
 * exits with the given codes.
 */
async function runWithFakeDeno(checkRc: number, testRc: number, testLine: string) {
  const bin = await Deno.makeTempDir({ prefix: "ba-fake-deno-" });
  try {
    await Deno.writeTextFile(
      `${bin}/deno`,
      `#!/bin/sh
if [ "$2" = "check" ]; then echo "package boundaries ok"; exit ${checkRc}; fi
echo "${testLine}"; exit ${testRc}
`,
    );
    await Deno.chmod(`${bin}/deno`, 0o755);
    const out = await new Deno.Command("sh", {
      args: [`${ROOT}/scripts/test.sh`],
      env: { PATH: `${bin}:${Deno.env.get("PATH")}`, CHROME_PATH: "/bin/sh" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
    return { code: out.code, last: lines[lines.length - 1] };
  } finally {
    await Deno.remove(bin, { recursive: true });
  }
}

Deno.test("scripts/test.sh exits 1 when a test fails, though its output goes through tee", async () => {
  const r = await runWithFakeDeno(0, 1, "FAILED | 455 passed | 1 failed (7m)");
  assert.equal(r.last, "455 passed, 1 failed");
  assert.equal(r.code, 1);
});

Deno.test("scripts/test.sh exits 1 when deno task check fails and the tests pass", async () => {
  const r = await runWithFakeDeno(1, 0, "ok | 455 passed | 0 failed (7m)");
  assert.equal(r.last, "455 passed, 1 failed");
  assert.equal(r.code, 1);
});

Deno.test("scripts/test.sh exits 0 when everything passes", async () => {
  const r = await runWithFakeDeno(0, 0, "ok | 455 passed | 0 failed (7m)");
  assert.equal(r.last, "455 passed, 0 failed");
  assert.equal(r.code, 0);
});
