import { describeCall } from "../tools/mod.ts";
import {
  readTrace,
  type TraceDecision,
  type TraceEnd,
  type TraceHandOff,
  type TraceLine,
  type TraceStart,
  type TraceStep,
} from "./trace_lines.ts";

/**
 * Writes `report.html` into a run folder from its `trace.jsonl` and screenshots: one
 * self-contained page (screenshots inlined) that shows the run step by step. Works on the trace
 * of a killed run too. Returns the report's path.
 *
 * @example
 * ```ts
 * const path = await writeReport("runs/2025-01-01T10-00-00-find-the-price");
 * ```
 */
export async function writeReport(dir: string): Promise<string> {
  const lines = await readTrace(dir);
  const images = new Map<string, string>();
  for (const line of lines) {
    const shot = line.type === "step"
      ? line.screenshot
      : line.type === "end"
      ? line.final?.screenshot
      : undefined;
    if (!shot) continue;
    try {
      const bytes = await Deno.readFile(`${dir}/${shot}`);
      images.set(shot, `data:image/jpeg;base64,${encodeBase64(bytes)}`);
    } catch {
      // A screenshot that never got written: the step shows without a picture.
    }
  }
  const path = `${dir}/report.html`;
  await Deno.writeTextFile(path, renderReport(lines, images));
  return path;
}

/** The HTML of a report; `images` maps screenshot paths to data URIs. */
export function renderReport(lines: TraceLine[], images: Map<string, string>): string {
  const start = lines.find((l): l is TraceStart => l.type === "run");
  const end = lines.find((l): l is TraceEnd => l.type === "end");
  const steps = lines.filter((l): l is TraceStep => l.type === "step");
  const decisions = lines.filter((l): l is TraceDecision => l.type === "decision");
  const handOffs = lines.filter((l): l is TraceHandOff => l.type === "hand_off");
  // A check handed to a person shows before the step whose look at the page found it; one the
  // run ended on, after the last step.
  const handedBetween = (after = -Infinity, upTo = Infinity) =>
    handOffs.filter((h) => h.step > after && h.step <= upTo).map(renderHandOff).join("\n");
  const held = decisions.length === 0 ? "" : `<section class="held"><h2>Held actions</h2><ul>
${
    decisions.map((d) =>
      `<li><a href="#step-${d.step}">Step ${d.step}</a>: ${esc(verdict(d))}</li>`
    ).join("\n")
  }
</ul></section>`;
  const summary = end
    ? [
      `<b>${esc(end.reason)}</b>`,
      `${end.steps} step${end.steps === 1 ? "" : "s"}`,
      `${(end.ms / 1000).toFixed(1)} s`,
      `${end.usage.estimated_requests ? "~" : ""}${
        end.usage.prompt_tokens + end.usage.completion_tokens
      } tokens (${end.usage.prompt_tokens} in, ${end.usage.completion_tokens} out${
        end.usage.estimated_requests
          ? `; estimated for ${end.usage.estimated_requests} of ${
            steps.filter((s) => s.model).length
          } requests`
          : ""
      })`,
      end.cost !== undefined ? `$${end.cost.toFixed(4)}` : "cost unknown",
      ...(handOffs.length ? [`${seconds(handOffs)} of it waiting for a person`] : []),
    ].join(" · ")
    : `<b>unfinished</b> · the run stopped before its end (killed or crashed) · ${steps.length} step${
      steps.length === 1 ? "" : "s"
    } recorded`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>browser-agent run: ${esc(start?.task.slice(0, 80) ?? "")}</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 1em; color: #222; }
h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin: 0 0 .4em; }
.step, .final { border: 1px solid #ccc; border-radius: 6px; padding: .8em; margin: 1em 0; display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1em; }
.step img, .final img { width: 100%; border: 1px solid #ddd; }
.ok { color: #176f2c; } .error { color: #b00020; }
dl { margin: 0; display: grid; grid-template-columns: auto 1fr; gap: .2em .8em; }
dt { color: #666; } dd { margin: 0; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; margin: 0; font-size: .9em; }
.answer { background: #f4f4f4; padding: .6em; border-radius: 4px; }
.hand-off { border: 1px solid #e0b050; border-left: 4px solid #c77700; background: #fff8ec; border-radius: 6px; padding: .8em; margin: 1em 0; }
</style>
</head>
<body>
<h1>${esc(start?.task ?? "(no task recorded)")}</h1>
<p>${summary}</p>
<p>Model ${esc(start?.model ?? "?")} · started ${esc(start?.started ?? "?")} · browser-agent ${
    esc(start?.agent ?? "?")
  }</p>
${end ? `<p class="answer">${esc(end.message)}</p>` : ""}
${held}
${
    steps.map((s, i) =>
      handedBetween(steps[i - 1]?.step, s.step) +
      renderStep(s, images, decisions.filter((d) => d.step === s.step))
    ).join("\n")
  }
${handedBetween(steps.at(-1)?.step)}
${end?.final ? renderFinal(end.final, images) : ""}
</body>
</html>
`;
}

function renderStep(
  s: TraceStep,
  images: Map<string, string>,
  decisions: TraceDecision[],
): string {
  const image = s.screenshot ? images.get(s.screenshot) : undefined;
  const target = s.target ? JSON.stringify(s.target.name || `<${s.target.tag}>`) : undefined;
  const rows: [string, string][] = [
    ["reasoning", esc(s.call.reasoning)],
    ["action", `<code>${esc(s.call.name)}</code> <code>${esc(JSON.stringify(s.call.args))}</code>`],
    [
      "effect",
      `<span class="${s.result.ok ? "ok" : "error"}">${
        s.result.ok
          ? "ok"
          : `error${s.result.kind ? ` (${esc(s.result.kind.replaceAll("_", " "))})` : ""}`
      }</span>: ${esc(s.result.text)}`,
    ],
  ];
  for (const d of decisions) rows.push(["held action", esc(verdict(d))]);
  // The start page opens before the first look: that step saw no page and no model.
  if (s.url) rows.push(["page", `${esc(s.title)}<br>${esc(s.url)}`]);
  rows.push(
    [
      "timings",
      `action ${s.ms} ms${s.settle_ms !== undefined ? ` (settle ${s.settle_ms} ms)` : ""}${
        s.model ? ` · model ${s.model.ms} ms` : ""
      }`,
    ],
  );
  const tokens = [
    s.model
      ? `${s.model.prompt_tokens} in, ${s.model.completion_tokens} out${
        s.model.estimated ? " (estimated)" : ""
      }`
      : "",
    s.observation.fingerprint
      ? `page ${s.observation.tokens} (${s.observation.elements} elements, ${s.observation.fingerprint})`
      : "",
  ].filter(Boolean);
  if (tokens.length > 0) rows.push(["tokens", tokens.join(" · ")]);
  if (s.model?.cost !== undefined) rows.push(["cost", `$${s.model.cost.toFixed(4)}`]);
  return `<section class="step" id="step-${s.step}">
<div>${
    image
      ? `<img src="${image}" alt="Page at step ${s.step}">`
      : s.url
      ? "<p>(no screenshot)</p>"
      : "<p>(opened before the first look at the page)</p>"
  }</div>
<div>
<h2>Step ${s.step}: ${esc(describeCall(s.call, target))}</h2>
<dl>
${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("\n")}
</dl>
</div>
</section>`;
}

/** `70.2 s`: the time the run waited for people. */
function seconds(handOffs: TraceHandOff[]): string {
  return `${(handOffs.reduce((sum, h) => sum + h.ms, 0) / 1000).toFixed(1)} s`;
}

/** A check handed to a person: what came of it, when, and how long they took. */
function renderHandOff(h: TraceHandOff): string {
  const where = h.by === "page"
    ? " in the live view"
    : h.by === "terminal"
    ? " at the terminal"
    : "";
  const took = `${(h.ms / 1000).toFixed(1)} s`;
  const outcome = {
    passed: `A person solved it${where} after ${took}; the run went on.`,
    still_there: `A person said it was solved${where} after ${took}, but it was still there.`,
    unanswered: `Nobody answered within ${took}: the run stopped.`,
    stopped: `The run was stopped after ${took} of waiting for a person.`,
  }[h.outcome];
  return `<section class="hand-off">
<h2>Handed to a person: the human-verification check (${esc(h.check.name)})</h2>
<p>${esc(outcome)}</p>
<dl>
<dt>page</dt><dd>${esc(h.check.url)}</dd>
<dt>seen</dt><dd>${esc(h.check.where)}</dd>
<dt>handed over</dt><dd>${esc(h.started)}</dd>
</dl>
</section>`;
}

/** The page the run ended on, after its last action. */
function renderFinal(final: NonNullable<TraceEnd["final"]>, images: Map<string, string>): string {
  const image = final.screenshot ? images.get(final.screenshot) : undefined;
  return `<section class="final" id="final">
<div>${image ? `<img src="${image}" alt="The final page">` : "<p>(no screenshot)</p>"}</div>
<div>
<h2>Final page, after the last action</h2>
<dl>
<dt>page</dt><dd>${esc(final.title)}<br>${esc(final.url)}</dd>
</dl>
</div>
</section>`;
}

/** `click [9] "Place order" (…): allowed at the terminal`. */
function verdict(d: TraceDecision): string {
  const by = d.by === "flag"
    ? "by --yes"
    : d.by === "page"
    ? "in the live view"
    : d.by === "terminal"
    ? "at the terminal"
    : "";
  switch (d.event) {
    case "held":
      return `${d.what}: held, nobody could confirm it`;
    case "confirmed":
      return `${d.what}: allowed ${by || "by the call"}`;
    case "allowed":
      return `${d.what}: allowed ${by || "by the user"}`;
    case "declined":
      return `${d.what}: refused ${by || "(nobody answered in time)"}`;
  }
}

function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
