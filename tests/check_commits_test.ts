import assert from "node:assert/strict";

const script = new URL("../scripts/check_commits.ts", import.meta.url).pathname;

/** A new git repository with one commit per subject given; the first commit's hash. */
async function repoWith(dir: string, subjects: string[]): Promise<string> {
  const git = async (...args: string[]) => {
    const out = await new Deno.Command("git", {
      args: ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout).trim();
  };
  await git("init", "-q");
  for (const subject of subjects) {
    await git("commit", "-q", "--allow-empty", "-m", subject, "-m", "The why.");
  }
  return await git("rev-list", "--max-parents=0", "HEAD");
}

async function check(dir: string, since?: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-run", script, dir, ...(since ? ["--since", since] : [])],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

Deno.test("check_commits fails on a subject over 72 characters after the base, naming it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "check-commits-" });
  try {
    const long = `Area: ${"a very long subject ".repeat(4)}that goes on`;
    assert.ok(long.length > 72);
    const base = await repoWith(dir, [
      `Before the rule: ${"an old subject that is long ".repeat(3)}`,
      "Tabs: a refused new tab is closed before it loads",
      long,
    ]);
    const said = await check(dir, base);
    assert.equal(said.code, 1, said.stderr);
    assert.match(said.stderr, new RegExp(`subject is ${long.length} characters \\(at most 72\\)`));
    assert.ok(said.stderr.includes(JSON.stringify(long)));
    // The base's own long subject is history, and the short one keeps the rule.
    assert.equal(said.stderr.trim().split("\n").length, 1, said.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("check_commits passes when every later subject keeps the rule, and says when it cannot tell", async () => {
  const dir = await Deno.makeTempDir({ prefix: "check-commits-" });
  try {
    const base = await repoWith(dir, ["Start", "x".repeat(72), "Docs: say so"]);
    const ok = await check(dir, base);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /commit subjects ok/);
    const unknown = await check(dir, "0123456789abcdef0123456789abcdef01234567");
    assert.equal(unknown.code, 0, unknown.stderr);
    assert.match(
      unknown.stderr,
      /commit subjects not checked: commit 0123456789abcdef.* is not in the history here/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("check_commits passes on this repository's history", async () => {
  const said = await check(new URL("..", import.meta.url).pathname);
  assert.equal(said.code, 0, said.stderr);
});
