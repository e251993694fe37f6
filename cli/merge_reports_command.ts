/**
 * `browser-agent merge-reports PATH...`: merges the JUnit files (and JSON lines) that the shards
 * of a batch wrote into one report, for the final job of a CI matrix.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { EXIT } from "../internal/config/mod.ts";
import { ConfigError } from "../internal/entity/mod.ts";
import { countCases, type JunitCase, mergeJunit, parseJunit } from "./junit_merge.ts";

const USAGE = "merge-reports [--junit FILE] [--jsonl FILE] [--fail-on-flaky] DIR_OR_FILE...";

/** Where the command writes. */
export interface MergeReportsIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/**
 * Reads every `.xml` (JUnit) and `.jsonl` (JSON lines of `--json`) file given, or found directly
 * in a folder given (sorted by name), and writes one JUnit report on stdout or to `--junit FILE`,
 * and the JSON lines, concatenated in the same order, to `--jsonl FILE` (flaky marks and all).
 * Exit 1 when a test failed or errored (or, with `--fail-on-flaky`, passed only on a retry), 0
 * otherwise; bad input throws a {@link ConfigError} (exit 2).
 *
 * @example
 * ```ts
 * await mergeReportsCommand(["reports/", "--junit", "junit.xml"], { stdout, stderr });
 * ```
 */
export async function mergeReportsCommand(argv: string[], io: MergeReportsIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        junit: { type: "string" },
        jsonl: { type: "string" },
        "fail-on-flaky": { type: "boolean" },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new ConfigError(
      `Cannot read the merge-reports flags: ${
        (error as Error).message.split("\n")[0]
      }; use ${USAGE}`,
    );
  }
  const { junit, jsonl } = parsed.values;
  const failOnFlaky = parsed.values["fail-on-flaky"] === true;
  if (parsed.positionals.length === 0) {
    throw new ConfigError(`merge-reports needs the shards' reports: ${USAGE}`);
  }
  // The outputs' folders are made before anything is read: a fresh CI checkout has none.
  if (junit) await makeFolderOf(junit, "--junit");
  if (jsonl) await makeFolderOf(jsonl, "--jsonl");
  const files = (await Promise.all(parsed.positionals.map(reportFiles))).flat();
  const xmlFiles = files.filter((f) => f.endsWith(".xml"));
  const jsonlFiles = files.filter((f) => f.endsWith(".jsonl"));
  if (xmlFiles.length === 0) {
    throw new ConfigError(
      `Cannot merge ${
        parsed.positionals.map((p) => `"${p}"`).join(", ")
      }: no JUnit .xml files there; give the folders or files the shards' --junit wrote`,
    );
  }
  const cases: JunitCase[] = [];
  for (const file of xmlFiles) cases.push(...parseJunit(await read(file), file));
  let report: string;
  try {
    report = mergeJunit(cases);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const lines: string[] = [];
  for (const file of jsonlFiles) lines.push(...jsonLines(await read(file), file));

  const n = countCases(cases);
  if (junit) {
    await write(junit, report, "--junit");
    const passed = n.tests - n.failures - n.errors - n.skipped - n.flaky;
    io.stderr(
      `${counted(n.tests, "test")} from ${counted(xmlFiles.length, "report")}: ${passed} passed, ${
        n.flaky ? `${n.flaky} flaky, ` : ""
      }${n.failures + n.errors} failed, ${n.skipped} skipped; JUnit report: ${junit}\n`,
    );
  } else {
    io.stdout(report);
  }
  if (jsonl) {
    await write(jsonl, lines.map((l) => l + "\n").join(""), "--jsonl");
    io.stderr(
      `${counted(lines.length, "JSON line")} from ${
        counted(jsonlFiles.length, "file")
      }: ${jsonl}\n`,
    );
  }
  return n.failures + n.errors > 0 || (failOnFlaky && n.flaky > 0) ? EXIT.failed : EXIT.ok;
}

/** The report files a path names: itself, or the `.xml` and `.jsonl` files directly in it. */
async function reportFiles(path: string): Promise<string[]> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    throw new ConfigError(`Cannot merge "${path}": ${(error as Error).message.split(":")[0]}`);
  }
  if (info.isFile) return [path];
  const names: string[] = [];
  for await (const entry of Deno.readDir(path)) {
    if (entry.isFile && /\.(xml|jsonl)$/.test(entry.name)) names.push(entry.name);
  }
  return names.sort().map((name) => `${path.replace(/\/+$/, "")}/${name}`);
}

async function read(file: string): Promise<string> {
  try {
    return await Deno.readTextFile(file);
  } catch (error) {
    throw new ConfigError(`Cannot read "${file}": ${(error as Error).message.split(":")[0]}`);
  }
}

async function makeFolderOf(file: string, flag: string): Promise<void> {
  const dir = dirname(resolve(file));
  try {
    await Deno.mkdir(dir, { recursive: true });
  } catch (error) {
    throw new ConfigError(
      `Cannot use ${flag} "${file}": cannot create its folder "${dir}" (${
        (error as Error).message.split(":")[0]
      }); pick a file you can write`,
    );
  }
}

async function write(file: string, text: string, flag: string): Promise<void> {
  try {
    await Deno.writeTextFile(file, text);
  } catch (error) {
    throw new ConfigError(
      `Cannot use ${flag} "${file}": ${
        (error as Error).message.split(":")[0]
      }; pick a file you can write`,
    );
  }
}

/** The non-blank lines of a JSON lines file, each checked to be a JSON object. */
function jsonLines(text: string, file: string): string[] {
  const lines: string[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ConfigError(`Cannot merge ${file}:${i + 1}: it is not a JSON line`);
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      throw new ConfigError(`Cannot merge ${file}:${i + 1}: each line must be a JSON object`);
    }
    lines.push(line);
  });
  return lines;
}

/** `1 report`, `3 reports`. */
function counted(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
