/**
 * The page's own dialogs (`alert`, `confirm`, `prompt`, `beforeunload`): answered as they come,
 * and recorded for the action's outcome. Alerts are always accepted; a `prompt()` an action
 * opens is held open for the model's answer; the others are dismissed unless the action running
 * was confirmed.
 *
 * @module
 */
import type { Dialog, Page } from "puppeteer-core";
import { ActionError, type BrowserState, type DialogRecord } from "../../entity/mod.ts";
import { renderHeldPrompt } from "../outcome/render_outcome.ts";

/**
 * How `confirm` and `beforeunload` dialogs are answered during one action (alerts are always
 * accepted, prompts held open); outside actions, and by default, they are dismissed.
 */
export type DialogAnswer = "accept" | "dismiss";

/** The longest dialog message (or prompt default) kept of what a page says in one. */
export const DIALOG_TEXT_CHARS = 2_000;

/** A dialog's text as plain data: a string, at most {@link DIALOG_TEXT_CHARS} long. */
function pageValue(text: unknown): string {
  return typeof text === "string" ? text.slice(0, DIALOG_TEXT_CHARS) : "";
}

/** The answer to a prompt held open: accept with `text` (its default when none), or dismiss. */
export type PromptAnswer = { text?: string } | { dismiss: true };

/** Answers one tab's dialogs and keeps what they said until an action takes them. */
export class DialogAnswers {
  /** The answer for the action now running; undefined between actions. */
  #answerNow: DialogAnswer | undefined;
  #dialogs: DialogRecord[] = [];
  /** The prompt held open for an answer. */
  #held: { dialog: Dialog; record: DialogRecord } | undefined;
  /** Resolved when the action now running has its prompt held open. */
  #heldNow = Promise.withResolvers<DialogRecord>();

  constructor(page: Page) {
    page.on("dialog", (dialog) => {
      this.#answer(dialog).catch(() => {/* the page went away first */});
    });
  }

  /**
   * Answers this tab's `confirm` and `beforeunload` dialogs with `answer` while `work` runs (one
   * action), holding a `prompt()` open for {@link answer}; then goes back to dismissing them.
   */
  async answering<T>(answer: DialogAnswer, work: () => Promise<T>): Promise<T> {
    this.#answerNow = answer;
    this.#heldNow = Promise.withResolvers();
    try {
      return await work();
    } finally {
      this.#answerNow = undefined;
    }
  }

  /**
   * Settles when a prompt of the action now running is held open (never when none is): the page
   * answers nothing until it is answered, so the action stops waiting on it.
   */
  get whenHeld(): Promise<DialogRecord> {
    return this.#heldNow.promise;
  }

  /** The prompt held open for an answer, if any. */
  get held(): DialogRecord | undefined {
    return this.#held?.record;
  }

  /** Answers the prompt held open; what it was. Throws a TypeError when none is. */
  async answer(answer: PromptAnswer): Promise<DialogRecord> {
    const held = this.#held;
    if (!held) throw new TypeError("No prompt is open");
    this.#held = undefined;
    if ("dismiss" in answer) await held.dialog.dismiss();
    else await held.dialog.accept(answer.text ?? held.dialog.defaultValue());
    return held.record;
  }

  /** Dialogs that appeared since the last call, each with how it was answered, in order. */
  take(): DialogRecord[] {
    const out = this.#dialogs;
    this.#dialogs = [];
    return out;
  }

  async #answer(dialog: Dialog): Promise<void> {
    const type = dialog.type() as DialogRecord["type"];
    // Page text, copied once and cut: a megabyte alert is no megabyte in every report.
    const message = pageValue(dialog.message());
    if (type === "prompt" && this.#answerNow !== undefined) {
      const record: DialogRecord = { type, message, answer: "waiting" };
      const given = pageValue(dialog.defaultValue());
      if (given) record.default = given;
      if (this.#answerNow === "accept") record.confirmed = true;
      this.#held = { dialog, record };
      this.#dialogs.push(record);
      this.#heldNow.resolve(record);
      return;
    }
    const accept = type === "alert" || this.#answerNow === "accept";
    this.#dialogs.push({ type, message, answer: accept ? "accepted" : "dismissed" });
    if (accept) await dialog.accept(type === "prompt" ? dialog.defaultValue() : "");
    else await dialog.dismiss();
  }
}

/**
 * What observing a tab that holds a prompt open shows: the prompt alone, with the address and
 * the title the page had (it cannot be asked anything while the prompt is open).
 */
export function promptView(url: string, title: string, record: DialogRecord): BrowserState {
  const text = renderHeldPrompt(record);
  return { url, title, lines: [{ kind: "note", text }], summary: text, dialog: record };
}

/**
 * Refuses whatever would ask the page something while it holds a prompt open (it would wait
 * until the prompt is answered): a `blocked` error that says how to answer it.
 */
export function refuseWhileHeld(dialogs: DialogAnswers): void {
  const held = dialogs.held;
  if (held) throw new ActionError("blocked", renderHeldPrompt(held));
}
