import assert from "node:assert/strict";
import { parseArgs } from "node:util";
import { FLAG_TABLE } from "../internal/config/mod.ts";
import { type ArgOption, ArgsError, parseArgsStrict } from "../internal/config/parse_args.ts";

/** The flag table as parser options, the way `splitArgs` builds them. */
const OPTIONS: Record<string, ArgOption> = Object.fromEntries(
  FLAG_TABLE.map((f) => [
    f.name,
    {
      type: f.value ? "string" : "boolean",
      ...(f.short ? { short: f.short } : {}),
      ...(f.multiple ? { multiple: true } : {}),
    } satisfies ArgOption,
  ]),
);

type Split = { values: Record<string, unknown>; positionals: string[] } | {
  code: string;
  message: string;
};

function ours(args: string[]): Split {
  try {
    const { values, positionals } = parseArgsStrict(args, OPTIONS);
    return { values: { ...values }, positionals };
  } catch (error) {
    assert.ok(error instanceof ArgsError, String(error));
    return { code: error.code, message: error.message };
  }
}

function node(args: string[]): Split {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: OPTIONS,
      strict: true,
      allowPositionals: true,
    });
    return { values: { ...values }, positionals };
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
}

/** Words a command line is made of: flags of every kind, their abuses, values and plain words. */
const WORDS = [
  "--task",
  "-t",
  "-tfind",
  "-t=x",
  "--task=",
  "--task=-x",
  "--max-steps",
  "--max-steps=3",
  "--json",
  "--json=yes",
  "--json=",
  "-q",
  "-v",
  "-qv",
  "-qvt",
  "-qvtx",
  "-vh",
  "-h",
  "-V",
  "-y",
  "-x",
  "-xq",
  "-qx",
  "--secret",
  "--secret=A=b",
  "--module",
  "--frobnicate",
  "--frob=1",
  "--",
  "-",
  "---x",
  "--=x",
  "--__proto__",
  "--constructor",
  "-1",
  "--1",
  "find",
  "the price",
  "",
  "=",
  "-t-",
  "--ui=",
  "--ui=8080",
];

/** A small deterministic generator, so a failure can be reproduced from its seed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

Deno.test("parseArgsStrict() splits a command line as node:util parseArgs does", () => {
  const next = random(17);
  for (let i = 0; i < 5000; i++) {
    const length = Math.floor(next() * 5);
    const args = Array.from({ length }, () => WORDS[Math.floor(next() * WORDS.length)]!);
    assert.deepEqual(ours(args), node(args), `for ${JSON.stringify(args)}`);
  }
});

Deno.test("parseArgsStrict() gives node:util's codes and messages for bad flags", () => {
  for (const args of [["--frobnicate"], ["-x"], ["--task"], ["--json=1"], ["-t", "-x"]]) {
    const split = ours(args);
    assert.ok("code" in split, `${JSON.stringify(args)} should fail`);
    assert.deepEqual(split, node(args));
  }
});

Deno.test("parseArgsStrict() collects a repeatable flag in order", () => {
  assert.deepEqual(ours(["--secret", "A=1", "find", "--secret=B=2"]), {
    values: { secret: ["A=1", "B=2"] },
    positionals: ["find"],
  });
});
