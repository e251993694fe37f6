/**
 * The page's own dialogs (`alert`, `confirm`, `prompt`, `beforeunload`): recorded for the
 * action's outcome. Alerts are accepted; a `confirm()`, `prompt()` or leave-page dialog an action
 * opens is held open for the model's answer (accept or dismiss: the page's question is the
 * model's to answer, `--yes` or not); one that opens between actions is dismissed.
 *
 * @module
 */
import type { Dialog, Page } from "puppeteer-core";
import { ActionError, type BrowserState, type DialogRecord } from "../../entity/mod.ts";
import { cut } from "../shared/text.ts";
import { renderHeldPrompt } from "../outcome/render_outcome.ts";

/**
 * Whether the action running was confirmed (`accept`: by `--yes`, the user or the call itself):
 * the dialogs it opens are held marked `confirmed`, so that accepting them is not judged again.
 * Either way they wait for the model's answer.
 */
export type DialogAnswer = "accept" | "dismiss";

/** The longest dialog message (or prompt default) kept of what a page says in one. */
export const DIALOG_TEXT_CHARS = 2_000;

/** A dialog's text as plain data: a string, at most {@link DIALOG_TEXT_CHARS} long. */
function pageValue(text: unknown): string {
  return typeof text === "string" ? text.slice(0, DIALOG_TEXT_CHARS) : "";
}

/**
 * The answer to a dialog held open: accept (a prompt with `text`, its default when none), or
 * dismiss (Cancel, or stay on the page).
 */
export type PromptAnswer = { text?: string } | { dismiss: true };

/** Answers one tab's dialogs and keeps what they said until an action takes them. */
export class DialogAnswers {
  /** Whether the action now running was confirmed; undefined between actions. */
  #answerNow: DialogAnswer | undefined;
  #dialogs: DialogRecord[] = [];
  /** The dialog held open for an answer. */
  #held: { dialog: Dialog; record: DialogRecord } | undefined;
  /** Resolved when the action now running has its dialog held open. */
  #heldNow = Promise.withResolvers<DialogRecord>();

  constructor(page: Page) {
    page.on("dialog", (dialog) => {
      this.#answer(dialog).catch(() => {/* the page went away first */});
    });
  }

  /**
   * Holds this tab's `confirm`, `prompt` and `beforeunload` dialogs open for {@link answer} while
   * `work` runs (one action), marked confirmed when `answer` is `accept`; then goes back to
   * dismissing them.
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
   * Settles when a dialog of the action now running is held open (never when none is): the page
   * answers nothing until it is answered, so the action stops waiting on it.
   */
  get whenHeld(): Promise<DialogRecord> {
    return this.#heldNow.promise;
  }

  /** The dialog held open for an answer, if any. */
  get held(): DialogRecord | undefined {
    return this.#held?.record;
  }

  /** Answers the dialog held open; what it was. Throws a TypeError when none is. */
  async answer(answer: PromptAnswer): Promise<DialogRecord> {
    const held = this.#held;
    if (!held) throw new TypeError("No dialog is open");
    this.#held = undefined;
    if ("dismiss" in answer) await held.dialog.dismiss();
    else if (held.record.type !== "prompt") await held.dialog.accept();
    else await held.dialog.accept(answer.text ?? held.record.default ?? "");
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
    if (type !== "alert" && this.#answerNow !== undefined) {
      const record: DialogRecord = { type, message, answer: "waiting" };
      const given = type === "prompt" ? pageValue(dialog.defaultValue()) : "";
      if (given) record.default = given;
      if (this.#answerNow === "accept") record.confirmed = true;
      this.#held = { dialog, record };
      this.#dialogs.push(record);
      this.#heldNow.resolve(record);
      return;
    }
    // An alert only informs; a question between actions is nobody's to answer: dismissed.
    const accept = type === "alert";
    this.#dialogs.push({ type, message, answer: accept ? "accepted" : "dismissed" });
    if (accept) await dialog.accept();
    else await dialog.dismiss();
  }
}

/**
 * What observing a tab that holds a dialog open shows: the dialog alone, with the address and
 * the title the page had (it cannot be asked anything while the dialog is open).
 */
export function promptView(url: string, title: string, record: DialogRecord): BrowserState {
  const text = renderHeldPrompt(record);
  return { url, title, lines: [{ kind: "note", text }], summary: text, dialog: record };
}

/**
 * Refuses whatever would ask the page something while it holds a dialog open (it would wait
 * until the dialog is answered): a `blocked` error that says how to answer it.
 */
export function refuseWhileHeld(dialogs: DialogAnswers): void {
  const held = dialogs.held;
  if (held) throw new ActionError("blocked", renderHeldPrompt(held));
}

/**
 * What answering `record` with `answer` did: `Answered the prompt "Name?" with "Ada"`,
 * `Accepted the confirm dialog "Delete?"`, `Cancelled …`, `Left the page …`, `Stayed …`.
 */
export function answeredPhrase(record: DialogRecord, answer: PromptAnswer): string {
  const asked = JSON.stringify(cut(record.message, 80));
  const no = "dismiss" in answer;
  if (record.type === "prompt") {
    return no
      ? `Dismissed the prompt ${asked}`
      : `Answered the prompt ${asked} with ${JSON.stringify(answer.text ?? record.default ?? "")}`;
  }
  if (record.type === "beforeunload") {
    return no
      ? "Stayed on the page (dismissed its leave-page dialog)"
      : "Left the page (accepted its leave-page dialog)";
  }
  return `${no ? "Cancelled" : "Accepted"} the ${record.type} dialog ${asked}`;
}
