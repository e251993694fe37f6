import assert from "node:assert/strict";
import { MAX_TEMP_DIR, TempRoot } from "../internal/browser/mod.ts";
import { entriesIn, processesGone } from "./support/leftovers.ts";
import { runCli } from "./support/run_cli.ts";
import { startScriptedModel } from "./support/scripted_model.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** Waits for a condition (a hang guard of 60 s, not a timing check). */
async function until(what: string, ok: () => boolean): Promise<void> {
  const end = Date.now() + 60_000;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test("TempRoot.claim() removes roots whose owner is gone and keeps the others", async () => {
  const base = await Deno.makeTempDir({ dir: "/tmp", prefix: "ba-" });
  try {
    // A root whose owner died (its lock is free), one that is ours, and some other folder.
    await Deno.mkdir(`${base}/browser-agent-dead01/profile`, { recursive: true });
    await Deno.writeTextFile(`${base}/browser-agent-dead01/owner.lock`, "1\n");
    await Deno.mkdir(`${base}/browser-agent-profile-old`);
    const mine = await TempRoot.claim({ tempDir: base });
    const again = await TempRoot.claim({ tempDir: base });
    const names = await entriesIn(base);
    assert.ok(!names.includes("browser-agent-dead01"), names.join(" "));
    assert.ok(names.includes("browser-agent-profile-old"), "not a root: left alone");
    assert.ok(names.includes(mine.dir.split("/").at(-1)!), "a live owner's root is kept");
    await again.remove();
    await mine.remove();
    assert.deepEqual(await entriesIn(base), ["browser-agent-profile-old"]);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("TempRoot.claim() uses /tmp when TMPDIR is too long for Chromium's socket", async () => {
  const long = `/tmp/${"d".repeat(80)}`;
  const temp = await TempRoot.claim({ tempDir: long });
  try {
    assert.ok(temp.dir.startsWith("/tmp/browser-agent-"), temp.dir);
    assert.ok(temp.dir.length <= MAX_TEMP_DIR);
  } finally {
    await temp.remove();
  }
});

Deno.test("cli runs with a TMPDIR over 60 characters and leaves nothing in it", async () => {
  const tmp = await Deno.makeTempDir({ prefix: `ba-long-${"x".repeat(70)}-` });
  try {
    assert.ok(tmp.length > 80);
    await using model = startScriptedModel([{ tool: "done", args: { result: "fine" } }]);
    const run = await runCli({ args: ["x"], env: { OPENAI_BASE_URL: model.baseUrl, TMPDIR: tmp } });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "fine\n");
    assert.deepEqual(await entriesIn(tmp), []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("cli killed with SIGKILL leaves folders the next run removes; a second Ctrl+C leaves none", async () => {
  const tmp = await Deno.makeTempDir({ dir: "/tmp", prefix: "ba-kill-" });
  try {
    await using model = startScriptedModel([
      { waitMs: 60_000 },
      { waitMs: 60_000 },
      { tool: "done", args: { result: "clean" } },
    ]);
    const env = { OPENAI_BASE_URL: model.baseUrl, TMPDIR: tmp, XDG_DATA_HOME: `${tmp}-data` };

    const killed = runCli({
      args: ["x"],
      env,
      onStart: (child) => {
        until("the first model request", () => model.requests.length >= 1).then(() =>
          child.kill("SIGKILL")
        );
      },
    });
    assert.equal((await killed).code, 137);
    assert.deepEqual(await processesGone(tmp), [], "Chromium outlived the killed agent");
    const left = await entriesIn(tmp);
    assert.equal(left.length, 1, "the killed run's temporary root is left");

    const forced = runCli({
      args: ["x"],
      env,
      onStart: (child) => {
        until("the second model request", () => model.requests.length >= 2).then(() => {
          child.kill("SIGINT");
          child.kill("SIGINT");
        });
      },
    });
    const second = await forced;
    assert.equal(second.code, 130, second.stderr);
    assert.deepEqual(await processesGone(tmp), []);
    assert.deepEqual(await entriesIn(tmp), [], "the stale root is gone, and the forced exit's too");

    const next = await runCli({ args: ["x"], env });
    assert.equal(next.code, 0, next.stderr);
    assert.deepEqual(await entriesIn(tmp), []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
    await Deno.remove(`${tmp}-data`, { recursive: true }).catch(() => {});
  }
});

Deno.test("scripts/agent.sh runs in the caller's folder: its .env and relative paths", async () => {
  const here = await Deno.makeTempDir({ prefix: "ba-caller-" });
  try {
    await using model = startScriptedModel([{ tool: "done", args: { result: "from .env" } }]);
    await Deno.writeTextFile(`${here}/.env`, `OPENAI_BASE_URL=${model.baseUrl}\n`);
    const env: Record<string, string> = {
      PATH: Deno.env.get("PATH")!,
      HOME: Deno.env.get("HOME")!,
    };
    for (const name of ["DENO_DIR", "TMPDIR", "XDG_CACHE_HOME"]) {
      const value = Deno.env.get(name);
      if (value) env[name] = value;
    }
    const out = await new Deno.Command("sh", {
      args: [`${ROOT}scripts/agent.sh`, "--out", "run", "x"],
      cwd: here,
      clearEnv: true,
      env: { ...env, CI: "true", NO_COLOR: "1", XDG_DATA_HOME: `${here}/data` },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    assert.equal(new TextDecoder().decode(out.stdout), "from .env\n");
    assert.ok(
      (await Deno.stat(`${here}/run/trace.jsonl`)).isFile,
      "--out is relative to the caller",
    );
  } finally {
    await Deno.remove(here, { recursive: true });
  }
});
