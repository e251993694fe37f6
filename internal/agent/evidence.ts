import type { StepRecord, ToolCall } from "../entity/mod.ts";

/** Calls whose effect shows on the page; the page not changing after one is a fact worth telling. */
const PASSIVE = new Set(["done", "ask_user", "navigate", "scroll", "(no tool)"]);

/** Answers that claim the page was changed ("Added to cart", "The message was sent"). */
const CLAIMS_EFFECT = new RegExp(
  [
    "(?<![\\p{L}])(?:added|clicked|pressed|submitted|sent|posted|published|bought|ordered|purchased|paid|booked|reserved|saved|deleted|removed|subscribed|unsubscribed|filled|entered|typed|selected|checked|unchecked|enabled|disabled|changed|updated|created|uploaded|applied|registered|signed (?:in|up)|logged (?:in|out)|opened|closed|accepted|confirmed|toggled)(?![\\p{L}])",
    "(?<![\\p{L}])(?:добавлен\\p{L}*|добавил\\p{L}*|отправлен\\p{L}*|отправил\\p{L}*|сохранен\\p{L}*|удален\\p{L}*|заказан\\p{L}*|оплачен\\p{L}*|hinzugefügt|gesendet|gespeichert|gelöscht|ajouté\\p{L}*|envoyé\\p{L}*|añadido|enviado|guardado|adicionado)(?![\\p{L}])",
    "已添加|已发送|已保存|已删除|已提交",
  ].join("|"),
  "iu",
);

/**
 * Checks that a successful `done` has evidence: when the answer claims an effect ("added to
 * cart"), the action just before it must have worked and changed the page. Returns the fact to
 * send back to the model, or undefined to accept. A `done` right after a rejected one is
 * accepted: the model insisted, and the user reads its answer.
 *
 * @example
 * ```ts
 * doneObjection(call, history, { lastChangedNothing: true, notActing: new Set() });
 * // 'Not finished yet: your last action (click [12] "Add to cart") made no visible change …'
 * ```
 */
export function doneObjection(
  call: ToolCall,
  history: readonly StepRecord[],
  /** `notActing`: tools that only look or work elsewhere: an unchanged page says nothing. */
  facts: { lastChangedNothing: boolean; notActing: ReadonlySet<string> },
): string | undefined {
  if (call.name !== "done" || call.args.success === false || call.args.success === "false") {
    return undefined;
  }
  const last = history.at(-1);
  if (last?.call.name === "done") return undefined; // sent back once already
  const answer = typeof call.args.result === "string" ? call.args.result : "";
  if (!CLAIMS_EFFECT.test(answer)) return undefined; // a finding, supported by what the page shows
  if (!last || PASSIVE.has(last.call.name) || facts.notActing.has(last.call.name)) return undefined;
  const what = `${last.call.name}${last.target ? ` ${last.target}` : ""}`;
  if (!last.result.ok) {
    return `Not finished yet: your last action (${what}) failed, so nothing on the page confirms ${
      JSON.stringify(short(answer))
    }. Check CURRENT PAGE; call done again only if the result is really there, or with success=false`;
  }
  if (facts.lastChangedNothing) {
    return `Not finished yet: your last action (${what}) made no visible change on the page, so nothing confirms ${
      JSON.stringify(short(answer))
    }. Check CURRENT PAGE and try another way; call done again only if the result is really there, or with success=false`;
  }
  return undefined;
}

function short(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > 80 ? `${t.slice(0, 79)}…` : t;
}
