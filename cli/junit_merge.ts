/**
 * Reads JUnit XML reports (ours, and the usual shape other tools write) and merges them into one,
 * for the final job of a CI matrix whose shards each wrote their own.
 *
 * @module
 */

/** How one test case ended. */
export type CaseStatus = "passed" | "failed" | "error" | "skipped";

/** One `<testcase>` of a report, kept as written so nothing of it is lost in the merge. */
export interface JunitCase {
  classname: string;
  name: string;
  /** Seconds. */
  time: number;
  status: CaseStatus;
  /** It passed after failed attempts (`<flakyFailure>` or `<flakyError>`, Surefire's marks). */
  flaky: boolean;
  /** The element as written in its file (already escaped XML). */
  xml: string;
  /** The file it came from, for messages. */
  file: string;
}

/** Totals of a report. */
export interface JunitCounts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  /** Passed after failed attempts; counted among the tests that did not fail. */
  flaky: number;
  /** Seconds, the sum of the cases' times. */
  time: number;
}

/**
 * The test cases of a JUnit XML file. Throws a TypeError naming the file when it is not JUnit
 * (no `<testsuite>` or `<testsuites>`) or a case has no name. A suite of no cases is valid (an
 * empty shard writes one).
 *
 * @example
 * ```ts
 * parseJunit(await Deno.readTextFile("shard-1.xml"), "shard-1.xml"); // [{ name: "login", status: "passed", … }]
 * ```
 */
export function parseJunit(text: string, file: string): JunitCase[] {
  const body = text.replace(/<!--[\s\S]*?-->/g, "");
  if (!/<testsuites?[\s>]/.test(body)) {
    throw new TypeError(`Cannot merge "${file}": it is not a JUnit XML file (no <testsuite>)`);
  }
  const cases: JunitCase[] = [];
  const pattern = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
  for (const m of body.matchAll(pattern)) {
    const attrs = attributes(m[1] ?? "");
    const inner = m[3] ?? "";
    if (!attrs.name) {
      throw new TypeError(`Cannot merge "${file}": a <testcase> has no name attribute`);
    }
    const time = Number(attrs.time ?? "0");
    const status: CaseStatus = /<failure[\s/>]/.test(inner)
      ? "failed"
      : /<error[\s/>]/.test(inner)
      ? "error"
      : /<skipped[\s/>]/.test(inner)
      ? "skipped"
      : "passed";
    cases.push({
      classname: attrs.classname ?? "",
      name: attrs.name,
      time: Number.isFinite(time) && time >= 0 ? time : 0,
      status,
      flaky: status === "passed" && /<flaky(Failure|Error)[\s/>]/.test(inner),
      xml: m[0],
      file,
    });
  }
  return cases;
}

/** Totals of some cases, as a report's header gives them. */
export function countCases(cases: readonly JunitCase[]): JunitCounts {
  const count = (status: CaseStatus) => cases.filter((c) => c.status === status).length;
  return {
    tests: cases.length,
    failures: count("failed"),
    errors: count("error"),
    skipped: count("skipped"),
    flaky: cases.filter((c) => c.flaky).length,
    time: Math.round(cases.reduce((sum, c) => sum + c.time, 0) * 1000) / 1000,
  };
}

/**
 * One JUnit report of the cases of several (in the order given), in one `<testsuite>` named
 * `suite`; each case is kept as written (a flaky one's `<flakyFailure>` elements too). Throws a TypeError when a case (class and name) appears in two files: the same shard
 * given twice, or two shards of different splits.
 *
 * @example
 * ```ts
 * mergeJunit([...parseJunit(a, "a.xml"), ...parseJunit(b, "b.xml")]);
 * ```
 */
export function mergeJunit(cases: readonly JunitCase[], suite = "browser-agent"): string {
  const seen = new Map<string, JunitCase>();
  for (const c of cases) {
    const key = `${c.classname}\u0000${c.name}`;
    const first = seen.get(key);
    if (first) {
      throw new TypeError(
        `Cannot merge: the test "${c.name}" is in both "${first.file}" and "${c.file}"; give each shard's report once`,
      );
    }
    seen.set(key, c);
  }
  const n = countCases(cases);
  const time = n.time.toFixed(3);
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="${n.tests}" failures="${n.failures}" errors="${n.errors}" time="${time}">
<testsuite name="${
    escapeXml(suite)
  }" tests="${n.tests}" failures="${n.failures}" errors="${n.errors}" skipped="${n.skipped}" time="${time}">
${cases.map((c) => `  ${c.xml}`).join("\n")}
</testsuite>
</testsuites>
`;
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    out[m[1]!] = unescapeXml(m[2] ?? m[3] ?? "");
  }
  return out;
}

function unescapeXml(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
    if (e[0] !== "#") return named[e.toLowerCase()]!;
    const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1));
    return String.fromCodePoint(code);
  });
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
