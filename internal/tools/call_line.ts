import type { ToolCall } from "../entity/mod.ts";

/**
 * A call as a person reads it, the same in the terminal's progress line, the live view and
 * spoken progress: the tool, then the element it targeted (`click [12] "Search"`), or the one
 * argument that says what it does (`navigate https://…`, `press Enter`, `scroll down`), or for
 * `wait` what was waited for (`wait 2 s`, `wait until "Results" shows`, `wait until "Loading"
 * is gone`), and for `type` the text typed (`type "Trailblazer" into [3] "Search"`: a secret is
 * its `{{secret:NAME}}`, as the model wrote it). Page and model text is not cleaned here: each
 * front-end escapes it its own way.
 *
 * @example
 * ```ts
 * describeCall({ name: "click", args: { id: 12 } }, '[12] "Search"'); // 'click [12] "Search"'
 * describeCall({ name: "wait", args: { text: "Results" } }); // 'wait until "Results" shows'
 * describeCall({ name: "type", args: { id: 3, text: "tent" } }, '[3] "Search"'); // 'type "tent" into [3] "Search"'
 * ```
 */
export function describeCall(call: Pick<ToolCall, "name" | "args">, target?: string): string {
  const arg = (name: string) => {
    const value = call.args[name];
    return typeof value === "string" || typeof value === "number" ? String(value) : "";
  };
  const quoted = (text: string) =>
    JSON.stringify(text.length > 60 ? `${text.slice(0, 59)}…` : text);
  if (call.name === "type" && typeof call.args.text === "string") {
    const enter = call.args.press_enter === true ? ", then Enter" : "";
    return `type ${quoted(call.args.text)}${target ? ` into ${target}` : ""}${enter}`;
  }
  if (target) return `${call.name} ${target}`;
  switch (call.name) {
    case "navigate":
      return `navigate ${arg("url")}`.trim();
    case "press":
      return `press ${arg("key")}`.trim();
    case "scroll":
      return `scroll ${arg("direction")}`.trim();
    case "page_tool":
      return `page_tool ${arg("name")}`.trim();
    case "switch_tab":
    case "close_tab":
      return `${call.name} ${arg("index")}`.trim();
    case "wait": {
      const text = arg("text").trim();
      if (!text) return arg("seconds") ? `wait ${arg("seconds")} s` : "wait";
      return `wait until ${quoted(text)} ${call.args.gone === true ? "is gone" : "shows"}`;
    }
    default:
      return call.name;
  }
}
