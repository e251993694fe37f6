import assert from "node:assert/strict";
import { loadConfig } from "../internal/config/mod.ts";
import { ConfigError } from "../internal/entity/mod.ts";
import { taskInput } from "../cli/task_input.ts";
import { removeRunFiles } from "../cli/single_command.ts";

const ENV = { OPENAI_API_KEY: "k" };

/** stdin holding `text`, a pipe or a terminal. */
function stdin(text: string, isTerminal = false) {
  return { readable: new Blob([text]).stream(), isTerminal };
}

Deno.test("taskInput() reads the task from stdin when the command line gives none", async () => {
  const input = await taskInput(loadConfig([], ENV), stdin("  find the price\n"));
  assert.deepEqual(input, { task: "find the price", interactive: false, stdinIsTerminal: false });
});

Deno.test("taskInput() prefers the command line's task and reads no stdin", async () => {
  const input = await taskInput(loadConfig(["buy milk"], ENV), stdin("not this"));
  assert.equal(input.task, "buy milk");
});

Deno.test("taskInput() opens the prompt when stdin is a terminal and no task is given", async () => {
  const input = await taskInput(loadConfig([], ENV), stdin("", true));
  assert.deepEqual(input, { task: "", interactive: true, stdinIsTerminal: true });
});

Deno.test("taskInput() refuses an empty stdin with how to give the task", async () => {
  await assert.rejects(
    taskInput(loadConfig([], ENV), stdin("  \n")),
    (error: Error) =>
      error instanceof ConfigError &&
      error.message === 'No task given: pass it as an argument, with --task "…", or on stdin',
  );
});

Deno.test("removeRunFiles() keeps an --out folder that was there, and what else it held", async () => {
  const dir = await Deno.makeTempDir();
  for (const name of ["trace.jsonl", "report.html", "notes.txt"]) {
    await Deno.writeTextFile(`${dir}/${name}`, "x");
  }
  await Deno.mkdir(`${dir}/screenshots`);
  await removeRunFiles(dir, true);
  const left = [...Deno.readDirSync(dir)].map((e) => e.name);
  assert.deepEqual(left, ["notes.txt"]);
  await removeRunFiles(dir, false);
  assert.throws(() => Deno.statSync(dir), Deno.errors.NotFound);
});
