/**
 * The live view's page: one self-contained file (no CDN, no build step), using only the JSON API
 * and the event stream. Landmarks, a live region for new steps, named buttons; usable at 400 px.
 */
export const LIVE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>browser-agent live view</title>
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: light dark; font: 15px/1.45 system-ui, sans-serif; }
  body { margin: 0; display: grid; grid-template-columns: minmax(0, 18rem) minmax(0, 1fr); min-height: 100vh; }
  header { grid-column: 1 / -1; padding: .5rem 1rem; border-bottom: 1px solid #8884; display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
  header h1 { font-size: 1.1rem; margin: 0; }
  nav, aside { padding: .75rem 1rem; border-right: 1px solid #8884; overflow-wrap: anywhere; }
  main { padding: .75rem 1rem; min-width: 0; overflow-wrap: anywhere; }
  h2 { font-size: 1rem; margin: .75rem 0 .25rem; }
  ul { padding-left: 1.1rem; margin: .25rem 0; }
  ol.steps { padding-left: 1.6rem; }
  ol.steps li { margin-bottom: .5rem; }
  .tool { font-family: ui-monospace, monospace; font-weight: 600; }
  .why { opacity: .75; }
  .bad { color: #c62828; }
  .current { font-weight: 600; }
  .ask { border: 2px solid #e65100; padding: .5rem; border-radius: .4rem; margin: .5rem 0; }
  .thinking { font-style: italic; opacity: .85; }
  button.risky { background: #b71c1c; color: #fff; border: 2px solid #7f0000; border-radius: .3rem; font-weight: 600; }
  button.safe { font-weight: 600; }
  img.shot { max-width: 100%; border: 1px solid #8884; display: block; margin-top: .5rem; }
  img.act { cursor: crosshair; touch-action: none; user-select: none; }
  img.act:focus { outline: 3px solid #e65100; outline-offset: 2px; }
  iframe { width: 100%; min-height: 16rem; border: 1px solid #8884; }
  button { font: inherit; padding: .25rem .6rem; margin: .15rem 0; }
  input[type=text] { font: inherit; width: min(100%, 24rem); }
  .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  @media (max-width: 700px) { body { grid-template-columns: 1fr; } nav, aside { border-right: 0; border-bottom: 1px solid #8884; } }
</style>
</head>
<body>
<header>
  <h1>browser-agent</h1>
  <span id="status" role="status">connecting…</span>
  <button id="stop" type="button" hidden>Stop the run</button>
</header>
<nav aria-label="Browsers and tabs"><h2>Browsers</h2><div id="browsers">none</div>
  <h2>Modules</h2><div id="modules">none</div></nav>
<main>
  <form id="next" hidden><label for="next-task">Next task</label> <input id="next-task" type="text"> <button type="submit">Run task</button></form>
  <section aria-labelledby="runs-title"><h2 id="runs-title">Runs</h2><div id="runs">No run yet.</div></section>
  <section aria-labelledby="shot-title"><h2 id="shot-title">Screen</h2>
    <button id="refresh" type="button">Refresh the screenshot</button>
    <img id="shot" class="shot" alt="Screenshot of the current tab" hidden></section>
  <section id="panels" aria-label="Module panels"></section>
  <div id="announce" class="sr" aria-live="polite"></div>
</main>
<script>
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
function button(label, onClick) {
  return el("button", { type: "button", textContent: label, onclick: () => onClick().catch((e) => say(e.message)) });
}
function say(text) { $("announce").textContent = text; }

// Each run keeps its elements: steps are appended, a question's form stays while it is open
// (what is typed into it survives new events), so the page never jumps under the reader.
const shown = new Map();
function renderRuns() {
  const box = $("runs");
  if (!state.runs.length) { box.textContent = "No run yet."; return; }
  if (!shown.size) box.replaceChildren();
  let active = false;
  for (const run of state.runs) {
    let view = shown.get(run.id);
    if (!view) {
      view = { article: el("article", {}), status: el("p", {}), steps: el("ol", { className: "steps" }), count: 0, thinking: el("p", { className: "thinking" }), ask: null, question: null, hold: null, held: null, wall: null, walled: "null", result: el("p", {}) };
      view.article.setAttribute("aria-label", "Run: " + run.task);
      view.article.append(el("h3", { textContent: run.task }), view.status, view.steps, view.thinking, view.result);
      box.append(view.article);
      shown.set(run.id, view);
    }
    view.status.textContent = "Status: " + run.status;
    if (run.status === "running" || run.status === "waiting") active = true;
    for (const step of run.steps.slice(view.count)) {
      view.steps.append(el("li", {},
        el("span", { className: "tool", textContent: step.what }),
        " · " + step.ms + " ms",
        step.reasoning ? el("div", { className: "why", textContent: step.reasoning }) : null,
        el("div", { className: step.ok ? "" : "bad", textContent: step.effect })));
    }
    view.count = run.steps.length;
    const thinking = run.thinking != null && run.status === "running";
    view.thinking.textContent = thinking ? "Step " + run.thinking + ": the model is thinking…" : "";
    view.thinking.hidden = !thinking;
    if (run.question !== view.question) {
      view.ask?.remove();
      view.ask = null;
      view.question = run.question;
      if (run.question) {
        const input = el("input", { type: "text" });
        input.setAttribute("aria-label", "Answer");
        view.ask = el("form", { className: "ask", onsubmit: (e) => { e.preventDefault(); api("/api/answer", { text: input.value, run: run.id }).then(() => say("Answer sent"), (err) => say(err.message)); } },
          el("p", { textContent: "The agent asks: " + run.question }), input, " ",
          el("button", { type: "submit", textContent: "Send answer" }));
        view.article.insertBefore(view.ask, view.result);
        input.focus();
      }
    }
    if (run.held !== view.held) {
      view.hold?.remove();
      view.hold = null;
      view.held = run.held;
      if (run.held) {
        // Refusing is the safe answer: it comes first and has the focus; Allow looks like the
        // risk it is.
        const refuse = button("Refuse", () => api("/api/confirm", { allow: false, run: run.id }));
        refuse.className = "safe";
        const allow = button("Allow", () => api("/api/confirm", { allow: true, run: run.id }));
        allow.className = "risky";
        allow.setAttribute("aria-describedby", "risk-" + run.id);
        view.hold = el("div", { className: "ask", role: "group" },
          el("p", { textContent: "Held for your confirmation: " + run.held }),
          el("p", { id: "risk-" + run.id, textContent: "Allowing does it for real; it may not be undone." }),
          refuse, " ", allow);
        view.article.insertBefore(view.hold, view.result);
        refuse.focus();
      }
    }
    const walled = JSON.stringify(run.verification || null);
    if (walled !== view.walled) {
      view.wall?.remove();
      view.wall = null;
      view.walled = walled;
      if (run.verification) {
        view.wall = wallPanel(run);
        view.article.insertBefore(view.wall, view.result);
      }
    }
    view.result.textContent = run.message && !(run.status === "running" || run.status === "waiting") ? "Result: " + run.message : "";
  }
  $("stop").hidden = !active;
}

// A human-verification check the person solves on the page's picture: each press and release of
// the mouse button and each key goes to the page, in order, and the picture is taken again after.
const KEYS = ["Enter", "Tab", "Backspace", "Delete", "Escape", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"];
function wallPanel(run) {
  const img = el("img", { className: "shot act", tabIndex: 0, draggable: false, alt: "The page: click on it where you would click, hold the button down to press and hold; with the picture focused, type" });
  let chain = Promise.resolve();
  // The picture: after each input (counted apart), and every 3 s while the check waits (a check
  // moves by itself: a spinner, a page that passes), sooner again when one could not be taken.
  const count = (name) => { img.dataset[name] = String(Number(img.dataset[name] || 0) + 1); };
  const show = (afterInput) => fetch("/api/screenshot?token=" + encodeURIComponent(token) + "&run=" + encodeURIComponent(run.id) + "&t=" + Date.now())
    .then((r) => r.ok ? r.blob() : Promise.reject(new Error("no picture")))
    .then((blob) => { const old = img.src; img.src = URL.createObjectURL(blob); count("shown"); if (afterInput) count("afterInput"); if (old.startsWith("blob:")) URL.revokeObjectURL(old); return true; })
    .catch(() => false);
  const tick = () => {
    if (finished || (img.dataset.shown && !img.isConnected)) return;
    show(false).then((ok) => setTimeout(tick, ok ? 3000 : 1000));
  };
  const send = (body, again) => {
    chain = chain.then(() => api("/api/input", Object.assign({ run: run.id }, body))).then(() => again ? show(true) : undefined, (e) => say(e.message));
  };
  const at = (e) => {
    const r = img.getBoundingClientRect();
    const part = (v) => Math.min(1, Math.max(0, v));
    return { x: part((e.clientX - r.left) / r.width), y: part((e.clientY - r.top) / r.height) };
  };
  // Where the press is, is read before anything can move the picture; the focus (for the keys
  // that follow) never scrolls the view.
  img.addEventListener("pointerdown", (e) => { const where = at(e); e.preventDefault(); img.focus({ preventScroll: true }); send(Object.assign({ kind: "down" }, where), false); });
  img.addEventListener("pointerup", (e) => { e.preventDefault(); send(Object.assign({ kind: "up" }, at(e)), true); });
  img.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key.length === 1) send({ kind: "text", text: e.key }, true);
    else if (KEYS.includes(e.key)) send({ kind: "key", key: e.key }, true);
    else return;
    e.preventDefault();
  });
  const resume = button("Resume", () => api("/api/resume", { run: run.id }).then(() => say("Resumed")));
  resume.className = "safe";
  const panel = el("div", { className: "ask wall", role: "group" },
    el("p", { textContent: run.verification.text + "." }),
    el("p", { textContent: "The agent never solves these: solve it yourself on the picture of the page below. Click where you would click (hold the button down to press and hold); with the picture focused, type and press keys. Each goes to the page, and the picture shows what it did. Then press Resume." }),
    img, resume);
  panel.setAttribute("aria-label", "Human verification");
  tick();
  return panel;
}

let browsersShown = "";
function renderBrowsers() {
  const box = $("browsers");
  const key = JSON.stringify(state.browsers);
  if (key === browsersShown) return;
  browsersShown = key;
  box.replaceChildren();
  if (!state.browsers.length) { box.textContent = "none"; return; }
  for (const browser of state.browsers) {
    const list = el("ul", {});
    for (const tab of browser.tabs) {
      const label = tab.title || tab.url;
      const pick = el("button", { type: "button", textContent: label + (tab.current ? " (current)" : ""), className: tab.current ? "current" : "", onclick: () => { selectedTab = tab.id; refreshShot(); } });
      pick.setAttribute("aria-label", "Show tab " + label);
      list.append(el("li", {}, pick, " ", button("Close tab " + label, () => api("/api/tabs/close", { tab: tab.id }).then(load))));
    }
    box.append(el("div", {}, el("strong", { textContent: browser.id }), " ",
      button("Close browser " + browser.id, () => api("/api/browsers/close", { browser: browser.id }).then(load)), list));
  }
}

let modulesShown = "";
function renderModules() {
  const box = $("modules");
  const key = JSON.stringify(state.modules);
  if (key === modulesShown) return;
  modulesShown = key;
  box.replaceChildren();
  const panels = $("panels");
  if (!state.modules.length) { box.textContent = "none"; return; }
  for (const module of state.modules) {
    box.append(el("p", {}, el("strong", { textContent: module.name }), ": " + module.tools.join(", ")));
    if (module.panel && !document.getElementById("panel-" + module.name)) {
      const frame = el("iframe", { id: "panel-" + module.name, title: "Panel of the " + module.name + " module", src: "/api/modules/" + encodeURIComponent(module.name) + "/panel?token=" + encodeURIComponent(token) });
      panels.append(el("h2", { textContent: module.name }), frame);
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
    .then((blob) => { const old = img.src; img.src = URL.createObjectURL(blob); img.hidden = false; if (old.startsWith("blob:")) URL.revokeObjectURL(old); })
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
  } catch (e) { $("status").textContent = "error: " + e.message; }
  loading = false;
  if (again) { again = false; load(); }
}

$("stop").onclick = () => api("/api/stop", {}).then(() => say("Stopping the run"), (e) => say(e.message));
$("refresh").onclick = takeShot;
$("next").onsubmit = (e) => {
  e.preventDefault();
  const input = $("next-task");
  api("/api/task", { text: input.value }).then(() => { input.value = ""; say("Task sent"); }, (err) => say(err.message));
};
const events = new EventSource("/api/events?token=" + encodeURIComponent(token));
events.onopen = () => { $("status").textContent = "live"; };
events.onerror = () => { if (!finished) $("status").textContent = "reconnecting…"; };
// The command finished: the server stops, so the page stops asking it anything.
events.addEventListener("closed", () => {
  finished = true;
  events.close();
  clearTimeout(shotTimer);
  $("status").textContent = "finished";
  $("stop").hidden = true;
  $("next").hidden = true;
  say("The command finished");
});
for (const type of ["run", "step", "question", "held", "answered", "end", "tabs", "thinking", "verification"]) {
  events.addEventListener(type, (event) => {
    const data = JSON.parse(event.data);
    if (type === "step") { say("Step " + data.step.n + ": " + data.step.what + ". " + data.step.effect); refreshShot(); }
    if (type === "question") say("The agent asks: " + data.question);
    if (type === "held") say("Held for your confirmation: " + data.held);
    if (type === "verification") say(data.verification.text + ": solve it on the picture of the page, then Resume");
    if (type === "end") { say("The run ended: " + data.reason); refreshShot(); }
    if (type === "tabs") refreshShot();
    load();
  });
}
load().then(refreshShot);
</script>
</body>
</html>
`;
