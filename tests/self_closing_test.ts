import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { closingInput } from "../internal/browser/tabs/self_closing.ts";

/** A tab that closes (emits "close") after `closesInMs`, or never; and its listeners left. */
function fakeTab(closesInMs?: number) {
  let closed = false;
  const listeners = new Set<() => void>();
  const page = {
    isClosed: () => closed,
    on: (_: string, fn: () => void) => listeners.add(fn),
    off: (_: string, fn: () => void) => listeners.delete(fn),
  } as unknown as Page;
  if (closesInMs !== undefined) {
    setTimeout(() => {
      closed = true;
      for (const fn of [...listeners]) fn();
    }, closesInMs);
  }
  return { page, listeners };
}

/** The error puppeteer rejects a call with when the tab's session ended. */
function sessionEnded(): Error {
  const error = new Error("Protocol error (Input.dispatchMouseEvent): Target closed");
  error.name = "TargetCloseError";
  return error;
}

Deno.test("closingInput takes the session's end as the input sent once the tab is seen closed", async () => {
  const tab = fakeTab(50);
  await closingInput(tab.page, () => Promise.reject(sessionEnded()));
  assert.equal(tab.page.isClosed(), true);
  assert.equal(tab.listeners.size, 0, "its close listener is removed");
});

Deno.test("closingInput throws the session's end when the tab lives on, and any other failure", async () => {
  const living = fakeTab();
  await assert.rejects(
    () => closingInput(living.page, () => Promise.reject(sessionEnded())),
    /Target closed/,
  );
  assert.equal(living.listeners.size, 0, "its close listener is removed");
  const other = fakeTab(0);
  await assert.rejects(
    () => closingInput(other.page, () => Promise.reject(new Error("Node is detached"))),
    /Node is detached/,
  );
});
