/**
 * A seeded, bounded randomized run: a few dozen malformed model replies through the real
 * command line. Whatever the model sends, the run ends (no hang), shows no raw JavaScript error
 * and no terminal escape, and leaves no browser process and no temporary folder.
 */
import assert from "node:assert/strict";
import { entriesIn, processesGone } from "./support/leftovers.ts";
import { runCli } from "./support/run_cli.ts";
import { type Reply, startScriptedModel } from "./support/scripted_model.ts";

const SEED = 20_251_125;
/** Replies served in all (a few dozen) and runs at most. */
const REPLIES = 40;
const MAX_RUNS = 8;

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function nested(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}

const ESCAPES = ["\u001b]0;pwned\u0007", "\u001b[2J", "\u001b[31m", "\u009b1m", "\r", "\u202e"];

/** One malformed (or merely hostile) reply, chosen by `r`. */
function malformed(r: () => number): Reply {
  const pick = <T>(items: T[]): T => items[Math.floor(r() * items.length)]!;
  const esc = () => pick(ESCAPES);
  const fn = (f: unknown) => ({
    message: { content: null, tool_calls: [{ id: "c", type: "function", function: f }] },
  });
  const kinds: (() => Reply)[] = [
    () => ({ message: { tool_calls: pick<unknown>([[null], "click", { a: 1 }, [1, 2], [[]]]) } }),
    () => fn(pick<unknown>([null, undefined, 42, "click", []])),
    () => fn({ name: pick<unknown>([null, 42, "", "a b", `x${esc()}`, "x".repeat(500)]) }),
    () =>
      fn({ name: "click", arguments: pick<unknown>([{ id: 1 }, [1], 42, "{oops", "", "null"]) }),
    () =>
      fn({
        name: pick(["type", "find", "navigate"]),
        arguments: nested(20 + Math.floor(r() * 30_000)),
      }),
    () =>
      fn({
        name: "type",
        arguments: JSON.stringify({ id: 1, text: "y".repeat(Math.floor(r() * 300_000)) }),
      }),
    () =>
      fn({
        name: pick(["nope", `evil${esc()}`, "click"]),
        arguments: JSON.stringify({ id: pick<unknown>([1e308, -1, "[3]", null, { a: 1 }]) }),
      }),
    () => ({
      message: {
        content: pick<unknown>([
          42,
          { a: 1 },
          [{
            type: "text",
            text: `function_call: name=scroll args={"direction": "down"} ${esc()}`,
          }],
          [null, 3],
          `hello ${esc()}`,
        ]),
      },
    }),
    () => ({
      message: fn({ name: "scroll", arguments: "{}" }).message,
      usage: pick<unknown>([
        { prompt_tokens: 1e308, completion_tokens: 1e308 },
        { prompt_tokens: -1 },
        "lots",
        null,
      ]),
    }),
    () => ({
      raw: pick([
        "null",
        "[]",
        '"x"',
        "{}",
        '{"error":{"message":"no"}}',
        "<html>",
        "",
        "data: {}\n\n",
        '{"choices":[{"mess',
      ]),
    }),
    () => ({ status: pick([500, 502, 503]) }),
  ];
  return pick(kinds)();
}

function finalDone(r: () => number): Reply {
  return { tool: "done", args: { result: `done ${ESCAPES[Math.floor(r() * ESCAPES.length)]} ok` } };
}

/** Raw JavaScript error texts a user must never see. */
const RAW_ERROR =
  /TypeError|RangeError|SyntaxError|ReferenceError|Cannot read propert|is not a function|is not iterable|Maximum call stack|Unexpected failure|\[object Object\]|\bat .+\.(ts|js):\d+|\bundefined\b|\bNaN\b|Infinity/;

Deno.test("a seeded run of malformed model replies: no crash, hang, raw error, browser or temp folder left", async () => {
  const r = random(SEED);
  const tmp = await Deno.makeTempDir({ dir: "/tmp", prefix: "ba-fuzz-" });
  let served = 0;
  const outcomes: string[] = [];
  try {
    for (let run = 0; run < MAX_RUNS && served < REPLIES; run++) {
      const script: Reply[] = Array.from({ length: 10 }, () => malformed(r));
      script.push(finalDone(r));
      await using model = startScriptedModel(script);
      let child: Deno.ChildProcess | undefined;
      const hang = setTimeout(() => child?.kill("SIGKILL"), 180_000);
      const result = await runCli({
        args: ["--max-steps", "12", "--max-time", "150", "find the price"],
        env: { OPENAI_BASE_URL: model.baseUrl, TMPDIR: tmp, XDG_DATA_HOME: `${tmp}-data` },
        onStart: (c) => (child = c),
      });
      clearTimeout(hang);
      served += model.requests.length;
      const label = `run ${run} (seed ${SEED}), exit ${result.code}`;
      outcomes.push(`${result.code}`);
      assert.ok([0, 1, 4].includes(result.code), `${label}: crash or hang\n${result.stderr}`);
      const shown = result.stdout + result.stderr;
      assert.doesNotMatch(shown, RAW_ERROR, `${label}\n${result.stderr}`);
      for (const c of ["\u001b", "\u009b", "\u202e", "\r"]) {
        assert.ok(!shown.includes(c), `${label}: a control character reached the terminal`);
      }
      assert.deepEqual(await processesGone(tmp), [], `${label}: Chromium left running`);
      assert.deepEqual(await entriesIn(tmp), [], `${label}: temporary folders left`);
    }
    assert.ok(served >= REPLIES, `only ${served} replies served (${outcomes.join(", ")})`);
  } finally {
    await Deno.remove(tmp, { recursive: true });
    await Deno.remove(`${tmp}-data`, { recursive: true }).catch(() => {});
  }
});
