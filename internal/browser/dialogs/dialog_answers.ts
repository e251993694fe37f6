/**
 * The page's own dialogs (`alert`, `confirm`, `prompt`, `beforeunload`): answered as they come,
 * and recorded for the action's outcome. Alerts are always accepted; the others are dismissed
 * unless the action running was confirmed.
 *
 * @module
 */
import type { Dialog, Page } from "puppeteer-core";
import type { DialogRecord } from "../../entity/mod.ts";

/**
 * How `confirm`, `prompt` and `beforeunload` dialogs are answered during one action (alerts are
 * always accepted); outside actions, and by default, they are dismissed.
 */
export type DialogAnswer = "accept" | "dismiss";

/** Answers one tab's dialogs and keeps what they said until an action takes them. */
export class DialogAnswers {
  /** The answer for the action now running; `dismiss` between actions. */
  #answerNow: DialogAnswer = "dismiss";
  #dialogs: DialogRecord[] = [];

  constructor(page: Page) {
    page.on("dialog", (dialog) => {
      this.#answer(dialog).catch(() => {/* the page went away first */});
    });
  }

  /**
   * Answers this tab's `confirm`, `prompt` and `beforeunload` dialogs with `answer` while `work`
   * runs (one action), then goes back to dismissing them.
   */
  async answering<T>(answer: DialogAnswer, work: () => Promise<T>): Promise<T> {
    this.#answerNow = answer;
    try {
      return await work();
    } finally {
      this.#answerNow = "dismiss";
    }
  }

  /** Dialogs that appeared since the last call, each with how it was answered, in order. */
  take(): DialogRecord[] {
    const out = this.#dialogs;
    this.#dialogs = [];
    return out;
  }

  async #answer(dialog: Dialog): Promise<void> {
    const type = dialog.type() as DialogRecord["type"];
    const message = dialog.message();
    const accept = type === "alert" || this.#answerNow === "accept";
    this.#dialogs.push({ type, message, answer: accept ? "accepted" : "dismissed" });
    if (accept) await dialog.accept(type === "prompt" ? dialog.defaultValue() : "");
    else await dialog.dismiss();
  }
}
