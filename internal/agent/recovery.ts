import type {
  BrowserState,
  ErrorKind,
  ObservedElement,
  ToolCall,
  ToolResult,
} from "../entity/mod.ts";
import {
  actionResult,
  actOptions,
  idOf,
  locate,
  type ToolContext,
  type ToolRegistry,
  withNote,
} from "../tools/mod.ts";

/** Failures the ladder cannot help with: the model's call itself is wrong, or a rule said no. */
const HOPELESS = new Set<ErrorKind>([
  "unknown_tool",
  "invalid_args",
  "unknown_element",
  "blocked",
  "held",
  "declined",
  "not_found",
  // The element cannot take the action (disabled, read-only): the browser already waited for it.
  "no_effect",
]);

/**
 * The recovery ladder for an action on an element that failed, tried before the model is asked
 * again: re-observe (following the element to its new ID when the page re-rendered it), scroll it
 * into view, then an alternate input method (Enter on the focused element instead of a click;
 * key-by-key typing instead of inserting the text). The result says what was tried.
 * Returns undefined when the failure is not one the ladder can help with.
 *
 * @example
 * ```ts
 * const better = await recoverAction({ call, result, known: (id) => seen.get(id), registry, ctx });
 * ```
 */
export async function recoverAction(options: {
  call: ToolCall;
  result: ToolResult;
  /** What an element looked like when it was last observed (the model may use an older ID). */
  known: (id: number) => ObservedElement | undefined;
  registry: ToolRegistry;
  ctx: ToolContext;
  /** Whether a call on a twin element (another ID) may run as the original was allowed to. */
  safe?: (twin: Pick<ToolCall, "name" | "args">) => Promise<boolean>;
}): Promise<ToolResult | undefined> {
  const { call, result, known, registry, ctx } = options;
  const first = idOf(call.args);
  // Only a call on an element by ID whose tool says it may be retried (`facts.retry`).
  if (result.ok || first === undefined || !registry.get(call.name)?.facts.retry) return undefined;
  if (HOPELESS.has(result.kind ?? "failed")) return undefined;
  const tried: string[] = [];
  const report = (r: ToolResult): ToolResult =>
    withNote(r, ` (recovery after "${short(result.text)}": ${tried.join("; ")})`);

  // 1. Re-observe: the element may have been re-rendered under a new ID.
  const fresh = await ctx.browser.observe();
  let id = first;
  if (!locate(fresh, id)) {
    const was = known(id);
    const twin = was && findTwin(fresh, was);
    if (!twin) {
      tried.push(`re-observed: no element like [${first}] is on the page now`);
      return report(result);
    }
    id = twin.id;
    tried.push(`re-observed: [${first}] is now [${id}] ${JSON.stringify(twin.label)}`);
    if (options.safe && !await options.safe({ name: call.name, args: { ...call.args, id } })) {
      tried.push(`[${id}] was not retried: it needs the user's confirmation`);
      return report(result);
    }
  } else tried.push("re-observed");
  const retry = (n: number) =>
    registry.dispatch({ name: call.name, args: { ...call.args, id: n } }, ctx);
  let r = await retry(id);
  if (r.ok) return report(r);

  // 2. Scroll it into view and try again.
  try {
    await ctx.browser.scroll(undefined, id, actOptions(ctx));
    tried.push(`scrolled [${id}] into view`);
    r = await retry(id);
    if (r.ok) return report(r);
  } catch (error) {
    tried.push(`cannot scroll [${id}] into view (${short(messageOf(error))})`);
  }

  // 3. Another way of input, through the same action path as every action.
  try {
    // Enter stands for a plain click only: not for a double or right click, nor a forced one.
    const plain = !call.args.double && !call.args.button && !call.args.force;
    if (call.name === "click" && plain) {
      const pressed = await ctx.browser.press("Enter", { ...actOptions(ctx), id });
      tried.push(`focused [${id}] and pressed Enter instead of clicking`);
      return report(actionResult(pressed));
    }
    if (call.name === "type" && typeof call.args.text === "string") {
      const typed = await ctx.browser.type(id, call.args.text, call.args.press_enter === true, {
        ...actOptions(ctx),
        clear: call.args.clear !== false,
        keyByKey: true,
      });
      tried.push(`typed key by key into [${id}]`);
      return report(actionResult(typed));
    }
  } catch (error) {
    tried.push(`the alternate input failed too (${short(messageOf(error))})`);
  }
  return report(r);
}

/** The element in a new observation that looks like `was`: same tag and label (and attributes). */
function findTwin(state: BrowserState, was: ObservedElement): ObservedElement | undefined {
  if (!was.label.trim()) return undefined;
  const same = state.lines.flatMap((l) =>
    l.kind === "element" && l.element.tag === was.tag && l.element.label === was.label
      ? [l.element]
      : []
  );
  if (same.length <= 1) return same[0];
  const attrs = was.attrs.join(" ");
  return same.find((e) => e.attrs.join(" ") === attrs) ?? same[0];
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function short(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > 100 ? `${t.slice(0, 99)}…` : t;
}
