import { basename, dirname, join } from "node:path";
import type { TargetRecord } from "./replay_target.ts";

/** A step whose recorded target is to be replaced, and the target as it is now. */
export interface TargetUpdate {
  step: number;
  target: TargetRecord;
}

/**
 * Writes healed targets into a run folder's `trace.jsonl`: in the line of each healed step, only
 * the fields of `target` whose value changed are rewritten (its recorded number is kept) and
 * fields it lacked are added; every other byte of the file stays as it was, so the change is one
 * reviewable diff. The new file replaces the old one atomically (written beside it, then
 * renamed). Returns the number of steps changed; throws a TypeError when a step's line is
 * missing or unreadable (nothing is written then).
 *
 * @example
 * ```ts
 * await rewriteTargets("smoke/checkout", [{ step: 2, target }]); // 1
 * ```
 */
export async function rewriteTargets(
  dir: string,
  updates: readonly TargetUpdate[],
): Promise<number> {
  const path = join(dir, "trace.jsonl");
  const text = await Deno.readTextFile(path);
  const lines = text.split("\n");
  let changed = 0;
  for (const update of updates) {
    const at = lines.findIndex((line) => isStepLine(line, update.step));
    if (at < 0) {
      throw new TypeError(
        `Cannot write the healed target of step ${update.step} into "${path}": no such step there`,
      );
    }
    const before = lines[at]!;
    const after = rewriteLine(before, update.target);
    if (after !== before) {
      lines[at] = after;
      changed++;
    }
  }
  if (changed === 0) return 0;
  const temp = join(dirname(path), `.${basename(path)}.heal-${crypto.randomUUID().slice(0, 8)}`);
  try {
    const mode = (await Deno.stat(path)).mode;
    await Deno.writeTextFile(temp, lines.join("\n"), mode === null ? {} : { mode: mode & 0o777 });
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {/* never written */});
    throw error;
  }
  return changed;
}

function isStepLine(line: string, step: number): boolean {
  if (!line.includes('"step"')) return false;
  try {
    const parsed = JSON.parse(line);
    return parsed?.type === "step" && parsed.step === step;
  } catch {
    return false; // a half-written last line of a killed run
  }
}

/** The line with `target`'s changed fields replaced in place; `id` (the recorded number) kept. */
function rewriteLine(line: string, target: TargetRecord): string {
  const top = members(line, line.indexOf("{"));
  const span = top.spans.get("target");
  if (!span || line[span.start] !== "{") {
    throw new TypeError(`Cannot write a healed target into a step that recorded none: ${line}`);
  }
  const inner = members(line, span.start);
  const edits: { start: number; end: number; text: string }[] = [];
  const added: string[] = [];
  for (const [key, value] of Object.entries(target)) {
    if (key === "id" || value === undefined) continue;
    const text = JSON.stringify(value);
    const old = inner.spans.get(key);
    if (!old) added.push(`${JSON.stringify(key)}:${text}`);
    else if (JSON.stringify(JSON.parse(line.slice(old.start, old.end))) !== text) {
      edits.push({ ...old, text });
    }
  }
  if (added.length) {
    // Right after the last member (or the opening brace): the spacing around it stays.
    const ends = [...inner.spans.values()].map((v) => v.end);
    const at = ends.length ? Math.max(...ends) : span.start + 1;
    edits.push({ start: at, end: at, text: `${ends.length ? "," : ""}${added.join(",")}` });
  }
  let out = line;
  for (const e of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
  }
  return out;
}

/** The value spans of an object's members, and the index after its closing brace. */
function members(
  text: string,
  open: number,
): { spans: Map<string, { start: number; end: number }>; end: number } {
  const spans = new Map<string, { start: number; end: number }>();
  let i = skipSpace(text, open + 1);
  if (text[i] === "}") return { spans, end: i + 1 };
  for (;;) {
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, keyEnd);
    if (text[i] !== ":") throw new TypeError(`Cannot read a trace line: ":" expected at ${i}`);
    const start = skipSpace(text, i + 1);
    const end = skipValue(text, start);
    spans.set(key, { start, end });
    i = skipSpace(text, end);
    if (text[i] === "}") return { spans, end: i + 1 };
    if (text[i] !== ",") throw new TypeError(`Cannot read a trace line: "," expected at ${i}`);
    i = skipSpace(text, i + 1);
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

function skipString(text: string, i: number): number {
  if (text[i] !== '"') throw new TypeError(`Cannot read a trace line: a string expected at ${i}`);
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === '"') return j + 1;
  }
  throw new TypeError("Cannot read a trace line: a string does not end");
}

function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c === "{" || c === "[") {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text[j];
      if (d === '"') j = skipString(text, j) - 1;
      else if (d === "{" || d === "[") depth++;
      else if (d === "}" || d === "]") {
        if (--depth === 0) return j + 1;
      }
    }
    throw new TypeError("Cannot read a trace line: an object or list does not end");
  }
  let j = i;
  while (j < text.length && !/[\s,}\]]/.test(text[j]!)) j++;
  return j;
}
