/**
 * The live view's script: reads the JSON API and the event stream, and shows runs (steps named as
 * the terminal names them, status as a label), browsers and tabs, modules, and one picture of the
 * page. What needs the person is in live_panels.ts.
 */
export const LIVE_SCRIPT = `
"use strict";
const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);
let selectedTab = "";
let finished = false;
let state = { runs: [], browsers: [], modules: [] };

async function api(path, body) {
  const response = await fetch(path, body === undefined
    ? { headers: { authorization: "Bearer " + token } }
    : { method: "POST", headers: { authorization: "Bearer " + token, "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || response.statusText);
  return response.json();
}
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props || {});
  for (const child of children) if (child != null) node.append(child);
  return node;
}
function button(label, onClick, className) {
  return el("button", { type: "button", className: className || "btn", textContent: label, onclick: () => onClick().catch((e) => say(e.message)) });
}
function say(text) { $("announce").textContent = text; }
function tag(text, tone) {
  const node = el("span", { className: "label", textContent: text });
  node.dataset.tone = tone;
  return node;
}

// A run's status as a coloured label; the terminal's name of how it ended is its title.
const STATUS = {
  running: ["Running", "run"], waiting: ["Needs you", "wait"], goal_satisfied: ["Done", "ok"],
  goal_failed: ["Failed", "bad"], needs_user: ["Needs a person", "wait"], loop_stuck: ["Stuck", "bad"],
  budget_exhausted: ["Out of budget", "bad"], aborted: ["Stopped", "quiet"], error: ["Error", "bad"],
};
function setStatus(node, status) {
  const [text, tone] = STATUS[status] || [status, "quiet"];
  node.textContent = text;
  node.dataset.tone = tone;
  node.title = status;
}

// Each run keeps its elements: steps are appended, panels stay while their question is open, so
// the page never jumps under the reader.
const shown = new Map();
function addRun(run) {
  const view = { article: el("article", { className: "run card" }), status: tag("", "quiet"), counted: el("span", { className: "muted" }), steps: el("ol", { className: "steps" }), count: 0, solved: 0, thinking: el("p", { className: "thinking" }), result: el("p", { className: "result" }), ask: null, hold: null, wall: null };
  view.article.setAttribute("aria-label", "Run: " + run.task);
  view.article.append(el("div", { className: "run-head" }, view.status, view.counted), el("h2", { className: "task", textContent: run.task }), view.steps, view.thinking, view.result);
  $("runs").append(view.article);
  shown.set(run.id, view);
  return view;
}
// The line a person follows: the running run's thinking line, else its last step. It is kept in
// view as the run grows, while it was in view before (a person who scrolled away is left there).
let followed = null;
function inView(node) {
  const r = node.getBoundingClientRect();
  return r.bottom > 0 && r.top < innerHeight;
}
function follow(view, run, keep) {
  if (run.status !== "running" && run.status !== "waiting") return;
  // What needs the person (a question, a held action, a check) comes first on the page and stays
  // in view: the run's lines below it are not scrolled to.
  if (run.question || run.held || run.verification) return;
  const node = !view.thinking.hidden ? view.thinking : view.steps.lastElementChild;
  if (!node) return;
  followed = node;
  if (keep) node.scrollIntoView({ block: "nearest" });
}
function renderRuns() {
  if (!state.runs.length) return;
  if (!shown.size) $("runs").replaceChildren();
  // Measured before this render moves anything.
  const keep = followed === null || !followed.isConnected || inView(followed);
  let active = false;
  for (const run of state.runs) {
    const view = shown.get(run.id) || addRun(run);
    setStatus(view.status, run.status);
    if (run.status === "running" || run.status === "waiting") active = true;
    appendSteps(view, run);
    const thinking = run.thinking != null && run.status === "running";
    view.thinking.textContent = thinking ? "Step " + run.thinking + ": the model is thinking…" : "";
    view.thinking.hidden = !thinking;
    const ended = run.message && !(run.status === "running" || run.status === "waiting");
    view.result.replaceChildren(...(ended ? [el("code", { textContent: run.status }), run.message] : []));
    view.result.hidden = !ended;
    renderPanels(view, run);
    follow(view, run, keep);
  }
  $("stop").hidden = !active;
  // The page's picture is drawn once: while a check is solved on it, there; after, here again.
  const walled = document.querySelector(".wall") !== null;
  if ($("screen").hidden && !walled) takeShot();
  $("screen").hidden = walled;
}
function appendSteps(view, run) {
  for (const step of run.steps.slice(view.count)) {
    const item = el("li", { className: "step" + (step.ok ? "" : " bad") },
      el("span", { className: "n", textContent: String(step.n) }),
      el("p", { className: "line" }, el("span", { className: "tool", textContent: step.what }), " ", el("span", { className: "ms", textContent: "· " + step.ms + " ms" })),
      el("p", { className: "effect", textContent: step.effect }),
      step.reasoning ? el("p", { className: "why", textContent: step.reasoning }) : null);
    item.dataset.n = step.n;
    view.steps.append(item);
  }
  view.count = run.steps.length;
  view.counted.textContent = view.count === 1 ? "1 step" : view.count + " steps";
  // A check a person solved shows after the step it followed.
  for (const solved of (run.handOffs || []).slice(view.solved)) {
    const item = el("li", { className: "solved" },
      el("span", { className: "n", textContent: "✓" }),
      el("p", { className: "line", textContent: "Check solved " + (solved.by === "page" ? "in the live view" : "at the terminal") + " · " + Math.round(solved.ms / 1000) + " s" }),
      el("p", { className: "effect", textContent: solved.text + ". The run went on." }));
    const later = [...view.steps.children].find((li) => Number(li.dataset.n) > solved.after);
    view.steps.insertBefore(item, later || null);
  }
  view.solved = (run.handOffs || []).length;
}

let browsersShown = "";
function renderBrowsers() {
  const box = $("browsers");
  const key = JSON.stringify(state.browsers);
  if (key === browsersShown) return;
  browsersShown = key;
  box.replaceChildren();
  if (!state.browsers.length) { box.append(el("p", { className: "empty", textContent: "None open." })); return; }
  for (const browser of state.browsers) {
    const list = el("ul", { className: "tabs" });
    for (const tab of browser.tabs) {
      const label = tab.title || tab.url;
      const pick = el("button", { type: "button", className: "tab-pick", textContent: label, title: tab.url, onclick: () => { selectedTab = tab.id; refreshShot(); } });
      pick.setAttribute("aria-label", "Show tab " + label + (tab.current ? " (current)" : ""));
      const close = button("×", () => api("/api/tabs/close", { tab: tab.id }).then(load), "btn btn-quiet btn-small");
      close.setAttribute("aria-label", "Close tab " + label);
      list.append(el("li", { className: tab.current ? "current" : "" }, pick, close));
      if (tab.current) $("shot-tab").textContent = label;
    }
    const close = button("Close", () => api("/api/browsers/close", { browser: browser.id }).then(load), "btn btn-quiet btn-small");
    close.setAttribute("aria-label", "Close browser " + browser.id);
    box.append(el("div", { className: "browser" }, el("div", { className: "browser-head" }, el("strong", { textContent: browser.id }), close), list));
  }
}

let modulesShown = "";
function renderModules() {
  const box = $("modules");
  const key = JSON.stringify(state.modules);
  if (key === modulesShown) return;
  modulesShown = key;
  box.replaceChildren();
  $("modules-card").hidden = !state.modules.length;
  for (const module of state.modules) {
    box.append(el("p", { className: "module" }, el("strong", { textContent: module.name }), " ", el("span", { className: "muted", textContent: module.tools.join(", ") })));
    if (module.panel && !document.getElementById("panel-" + module.name)) {
      const frame = el("iframe", { id: "panel-" + module.name, title: "Panel of the " + module.name + " module", src: "/api/modules/" + encodeURIComponent(module.name) + "/panel?token=" + encodeURIComponent(token) });
      $("panels").append(el("section", { className: "card" }, el("h2", { className: "title card-head", textContent: module.name }), frame));
    }
  }
}

// A picture costs the agent's browser time: at most one in 3 s.
let shotTimer = 0, lastShot = 0;
function refreshShot() {
  if (shotTimer || finished) return;
  const wait = Math.max(0, lastShot + 3000 - Date.now());
  shotTimer = setTimeout(() => { shotTimer = 0; lastShot = Date.now(); takeShot(); }, wait);
}
function takeShot() {
  if (finished) return;
  const img = $("shot");
  const tab = selectedTab ? "&tab=" + encodeURIComponent(selectedTab) : "";
  fetch("/api/screenshot?token=" + encodeURIComponent(token) + tab + "&t=" + Date.now())
    .then((r) => r.ok ? r.blob() : Promise.reject(new Error("no picture")))
    .then((blob) => { const old = img.src; img.src = URL.createObjectURL(blob); img.hidden = false; $("shot-empty").hidden = true; if (old.startsWith("blob:")) URL.revokeObjectURL(old); })
    .catch(() => {});
}

let loading = false, again = false;
async function load() {
  if (finished) return;
  if (loading) { again = true; return; }
  loading = true;
  try {
    state = await api("/api/state");
    renderRuns(); renderBrowsers(); renderModules();
    $("next").hidden = !state.acceptsTasks;
  } catch (e) { setLive("Error: " + e.message, "bad"); }
  loading = false;
  if (again) { again = false; load(); }
}
function setLive(text, tone) { const s = $("status"); s.textContent = text; s.dataset.tone = tone; }

$("stop").onclick = () => api("/api/stop", {}).then(() => say("Stopping the run"), (e) => say(e.message));
$("refresh").onclick = takeShot;
$("next").onsubmit = (e) => {
  e.preventDefault();
  const input = $("next-task");
  api("/api/task", { text: input.value }).then(() => { input.value = ""; say("Task sent"); }, (err) => say(err.message));
};
const events = new EventSource("/api/events?token=" + encodeURIComponent(token));
events.onopen = () => setLive("Live", "ok");
events.onerror = () => { if (!finished) setLive("Reconnecting…", "wait"); };
// The command finished: the server stops, so the page stops asking it anything.
events.addEventListener("closed", () => {
  finished = true;
  events.close();
  clearTimeout(shotTimer);
  setLive("Finished", "quiet");
  $("stop").hidden = true;
  $("next").hidden = true;
  // Nothing is there to answer any more: no button or field still looks like it would act.
  for (const control of document.querySelectorAll("button, input")) control.disabled = true;
  $("shot").classList.remove("act");
  say("The command finished");
});
for (const type of ["run", "step", "question", "held", "answered", "end", "tabs", "thinking", "verification"]) {
  events.addEventListener(type, (event) => {
    const data = JSON.parse(event.data);
    if (type === "step") { say("Step " + data.step.n + ": " + data.step.what + ". " + data.step.effect); refreshShot(); }
    if (type === "question") say("The agent asks: " + data.question);
    if (type === "held") say("Held for your confirmation: " + data.held);
    if (type === "verification" && data.verification && !data.verification.checking) say(data.verification.text + (data.verification.still ? ": still there. Solve it on the picture of the page, then Resume" : ": solve it on the picture of the page, then Resume"));
    if (type === "verification" && data.passed) say("The check is passed: the run goes on");
    // The page the run ended on is pictured at once: the command may finish right after.
    if (type === "end") { say("The run ended: " + data.reason); clearTimeout(shotTimer); shotTimer = 0; takeShot(); }
    if (type === "tabs") refreshShot();
    load();
  });
}
load().then(refreshShot);
`;
