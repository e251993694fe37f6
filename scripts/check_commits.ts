/**
 * Fails when a commit subject is longer than {@link SUBJECT_MAX} characters (CONTRIBUTING.md,
 * "Commits": the subject says what changed, the why goes in the body).
 *
 * Only commits after {@link SINCE} are held to it: the rule was written in 013ae2b, and the
 * history before this check is not rewritten. Where that commit is not in the history (a shallow
 * clone, an export without `.git`) nothing can be told, and the check says so and passes.
 *
 * Run: deno run --allow-read --allow-run scripts/check_commits.ts [REPO_DIR] [--since REV]
 */

/** The longest subject a commit may have. */
export const SUBJECT_MAX = 72;

/** The last commit before subjects were checked; every later one keeps the rule. */
export const SINCE = "39382409b3728dd75df089ee829a78e5caa6e2af";

/** A subject over the limit: its commit, its length and the subject itself. */
export interface LongSubject {
  commit: string;
  length: number;
  subject: string;
}

/**
 * The commits after `since` in `dir` whose subject is too long; undefined when `since` is not
 * in the history there (nothing can be told).
 */
export async function longSubjects(
  dir: string,
  since: string,
): Promise<LongSubject[] | undefined> {
  const known = await git(dir, ["cat-file", "-e", `${since}^{commit}`]);
  if (known === undefined) return undefined;
  const log = await git(dir, ["log", "--format=%h%x00%s", `${since}..HEAD`]);
  if (log === undefined) return undefined;
  return log.split("\n").filter(Boolean).map((line) => {
    const [commit = "", subject = ""] = line.split("\0");
    return { commit, subject, length: [...subject].length };
  }).filter((c) => c.length > SUBJECT_MAX);
}

/** What `git args` printed in `dir`, or undefined when it failed (or git is not installed). */
async function git(dir: string, args: string[]): Promise<string | undefined> {
  try {
    const out = await new Deno.Command("git", { args, cwd: dir, stdout: "piped", stderr: "null" })
      .output();
    return out.success ? new TextDecoder().decode(out.stdout) : undefined;
  } catch {
    return undefined;
  }
}

if (import.meta.main) {
  const args = [...Deno.args];
  const at = args.indexOf("--since");
  const since = at >= 0 ? args.splice(at, 2)[1] ?? "" : SINCE;
  const dir = args[0] ?? new URL("..", import.meta.url).pathname;
  const long = await longSubjects(dir, since);
  if (long === undefined) {
    console.error(`commit subjects not checked: commit ${since} is not in the history here`);
  } else if (long.length > 0) {
    for (const c of long) {
      console.error(
        `error: commit ${c.commit}'s subject is ${c.length} characters (at most ${SUBJECT_MAX}): ${
          JSON.stringify(c.subject)
        }: say the why in the body and amend or reword it (git rebase -i)`,
      );
    }
    Deno.exit(1);
  } else {
    console.log("commit subjects ok");
  }
}
