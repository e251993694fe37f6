import assert from "node:assert/strict";
import { DecisionNotes } from "../cli/run_answers.ts";
import type { TraceWriter } from "../internal/trace/mod.ts";

type Entry = Parameters<TraceWriter["note"]>[0];

/** Notes kept in a list instead of a trace. */
function notes() {
  const entries: Entry[] = [];
  return {
    entries,
    notes: new DecisionNotes((entry) => {
      entries.push(entry);
      return Promise.resolve();
    }),
  };
}

Deno.test("DecisionNotes.decided() notes a yes given at the terminal as the acting step's, once", async () => {
  const { entries, notes: n } = notes();
  const confirm = n.fromTerminal(() => Promise.resolve(true));
  n.acting(4);
  assert.equal(await confirm('Allow click [9] "Pay"?'), true);
  n.decided({ event: "allowed", by: "user", tool: "click", what: 'click [9] "Pay"' });
  n.decided({ event: "allowed", by: "user", tool: "click", what: 'click [9] "Pay"' });
  assert.deepEqual(entries, [
    { type: "decision", step: 4, event: "allowed", by: "terminal", what: 'click [9] "Pay"' },
    { type: "decision", step: 4, event: "allowed", what: 'click [9] "Pay"' },
  ]);
});

Deno.test("DecisionNotes.answered() notes an answer from the live view and who gave the next decision", () => {
  const { entries, notes: n } = notes();
  n.acting(2);
  n.answered("page");
  n.decided({ event: "declined", by: "user", tool: "click", what: "click [3] Delete" });
  n.decided({ event: "confirmed", by: "flag", tool: "click", what: "click [3] Delete" });
  assert.deepEqual(entries, [
    { type: "answer", by: "page" },
    { type: "decision", step: 2, event: "declined", by: "page", what: "click [3] Delete" },
    { type: "decision", step: 2, event: "confirmed", by: "flag", what: "click [3] Delete" },
  ]);
});
