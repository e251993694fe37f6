import assert from "node:assert/strict";
import {
  ANIMATION_CLASSES,
  classState,
  STATE_CLASSES,
} from "../internal/browser/page/core/shown_states.ts";

Deno.test("classState() reads every state class row's example, and no ordinary or negated class", () => {
  for (const row of STATE_CLASSES) assert.equal(classState(row.example), row.state, row.reason);
  for (
    const token of [
      "inactive",
      "activity",
      "selection",
      "currently",
      "btn",
      "actions",
      "pagination_Not_Selected",
      "not-active",
      "unselected",
      "non-current",
    ]
  ) assert.equal(classState(token), null, token);
  assert.equal(classState("Pagination_Selected"), "SELECTED");
});

Deno.test("ANIMATION_CLASSES marks every row's example and no state or ordinary class", () => {
  const animated = (t: string) => ANIMATION_CLASSES.some((r) => r.token.test(t));
  for (const row of ANIMATION_CLASSES) assert.ok(animated(row.example), row.reason);
  for (const row of STATE_CLASSES) assert.ok(!animated(row.example), row.example);
  for (const token of ["btn-primary", "spine", "progression", "flashcard"]) {
    assert.ok(!animated(token), token);
  }
});
