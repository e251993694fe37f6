import type { StepRecord, ToolCall } from "../entity/mod.ts";
import type { ToolFacts } from "../tools/mod.ts";

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
 * Answers that say an action did not work ("the second click landed on the blue button on top",
 * "could not add it: the button is disabled"): they claim no success of the failed action.
 */
const OWNS_FAILURE =
  /(?<![\p{L}])(?:not|never|failed|fails|cannot|unable|blocked|covered|refused|instead|on top|no longer)(?![\p{L}])|n't(?![\p{L}])/iu;

/**
 * Sends back a successful `done` only when it can show the answer wrong: the answer claims an
 * effect ("added to cart") right after a call that acts on an element of the page (its tool's
 * facts: `effect: "acts"`, `element: true`: a click, typing, a choice, a key) and that call
 * failed, and does not say the action failed. A page that did not change is no reason: many clicks rightly change nothing visible
 * (a choice already made, a colour, a dialog that came and went), and the model reads the page.
 * Returns the fact to send back to the model, or undefined to accept. A `done` right after a
 * rejected one is accepted: the model insisted, and the user reads its answer.
 *
 * @example
 * ```ts
 * doneObjection(call, history, { facts: (name) => registry.get(name)?.facts });
 * // 'Not finished yet: your last action (click [12] "Add to cart") failed, …'
 * ```
 */
export function doneObjection(
  call: ToolCall,
  history: readonly StepRecord[],
  /** `facts`: the facts of a tool by name (undefined for a name no tool has). */
  known: { facts: (name: string) => ToolFacts | undefined },
): string | undefined {
  if (call.name !== "done" || call.args.success === false || call.args.success === "false") {
    return undefined;
  }
  const last = history.at(-1);
  if (last?.call.name === "done") return undefined; // sent back once already
  const answer = typeof call.args.result === "string" ? call.args.result : "";
  if (!CLAIMS_EFFECT.test(answer)) return undefined; // a finding, supported by what the page shows
  if (OWNS_FAILURE.test(answer)) return undefined; // it says the action did not work
  const acted = last && known.facts(last.call.name);
  if (!last || acted?.effect !== "acts" || !acted.element || last.result.ok) return undefined;
  const what = `${last.call.name}${last.target ? ` ${last.target}` : ""}`;
  return `Not finished yet: your last action (${what}) failed, so nothing on the page confirms ${
    JSON.stringify(short(answer))
  }. Check CURRENT PAGE; call done again only if the result is really there, or with success=false`;
}

function short(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > 80 ? `${t.slice(0, 79)}…` : t;
}
