/**
 * The live view's script for what needs the person, shown first: a question, an action held for
 * confirmation, a human-verification check to solve on the page's picture. Each panel stays while
 * its question is open (what is typed into it survives new events). Uses `el`, `button`, `api`,
 * `say`, `token` and `finished` of the page's script (live_script.ts).
 */
export const LIVE_PANELS = `
// The panels of a run, kept on its view: one per open question, held action or check.
function renderPanels(view, run) {
  view.ask = swap(view.ask, run.question, () => questionPanel(run));
  view.hold = swap(view.hold, run.held, () => heldPanel(run));
  if (!run.verification !== !view.wall) {
    view.wall?.panel.remove();
    view.wall = run.verification ? wallPanel(run) : null;
    if (view.wall) $("attention").append(view.wall.panel);
  }
  view.wall?.update(run.verification);
}
function swap(current, value, make) {
  if ((current?.value ?? null) === (value ?? null)) return current;
  current?.panel.remove();
  if (!value) return null;
  const made = make();
  $("attention").append(made.panel);
  made.focus?.focus();
  return { panel: made.panel, value };
}
function panelHead(tone, labelText, title) {
  return el("div", { className: "panel-head" }, tag(labelText, tone), el("h2", { textContent: title }));
}
// Several runs at once (a batch): each panel says whose it is.
function forRun(run) {
  return state.runs.length > 1 ? el("p", { className: "for-run", textContent: "Run: " + run.task }) : null;
}

function questionPanel(run) {
  const input = el("input", { type: "text" });
  input.setAttribute("aria-label", "Answer");
  const form = el("form", { onsubmit: (e) => { e.preventDefault(); api("/api/answer", { text: input.value, run: run.id }).then(() => say("Answer sent"), (err) => say(err.message)); } },
    input, el("button", { type: "submit", className: "btn btn-primary", textContent: "Send answer" }));
  const panel = el("section", { className: "panel needs ask" },
    panelHead("wait", "Your answer", "The agent asks"), forRun(run),
    el("p", { className: "check", textContent: run.question }), form);
  panel.setAttribute("aria-label", "The agent asks: " + run.question);
  return { panel, focus: input };
}

// Refusing is the safe answer: it comes first and has the focus; Allow looks like the risk it is.
function heldPanel(run) {
  const refuse = button("Refuse", () => api("/api/confirm", { allow: false, run: run.id }), "btn safe");
  const allow = button("Allow", () => api("/api/confirm", { allow: true, run: run.id }), "btn risky");
  allow.setAttribute("aria-describedby", "risk-" + run.id);
  const panel = el("section", { className: "panel risk ask", role: "group" },
    panelHead("bad", "Risky action", "Held for your confirmation"), forRun(run),
    el("p", { className: "check", textContent: run.held }),
    el("p", { className: "hint", id: "risk-" + run.id, textContent: "Allowing does it for real; it may not be undone." }),
    el("div", { className: "actions" }, refuse, allow));
  panel.setAttribute("aria-label", "Held for your confirmation");
  return { panel, focus: refuse };
}

// A human-verification check the person solves on the page's picture: each press and release of
// the mouse button and each key goes to the page, in order, and the picture is taken again after.
const KEYS = ["Enter", "Tab", "Backspace", "Delete", "Escape", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"];
function wallPanel(run) {
  const img = el("img", { className: "shot act", tabIndex: 0, draggable: false, alt: "The page: click on it where you would click, hold the button down to press and hold; with the picture focused, type" });
  const frame = el("div", { className: "zoom" }, img);
  const zoom = pictureZoom(frame, img);
  const check = el("p", { className: "check" });
  const after = el("p", { className: "after" });
  const feedback = el("p", { className: "feedback", role: "status" });
  const resume = button("Resume", () => {
    resume.disabled = true;
    tell(feedback, "run", "Checking whether the check is gone…");
    return api("/api/resume", { run: run.id }).catch((e) => { resume.disabled = false; tell(feedback, "bad", e.message); throw e; });
  }, "btn btn-primary");
  resume.setAttribute("aria-describedby", "resume-" + run.id);
  const panel = el("section", { className: "panel needs wall", role: "group" },
    el("div", { className: "panel-head" }, tag("Your turn", "wait"), el("h2", { textContent: "Solve the check on the page" }), resume),
    feedback, forRun(run), check, after,
    el("p", { className: "hint", id: "resume-" + run.id, textContent: "The agent never solves these: solve it yourself on the picture below. Click where you would click (hold the button down to press and hold); with the picture focused, type. Each goes to the page. Then press Resume." }),
    el("div", { className: "picture" }, frame, zoom.toggle));
  panel.setAttribute("aria-label", "Human verification");
  pictureInput(run, img);
  // The picture fits in the window below the panel's text, so the whole check shows at once;
  // then it is zoomed around the check (live_zoom.ts), once it has a size.
  const fit = () => {
    if (!img.isConnected) return removeEventListener("resize", fit);
    zoom.reset();
    const top = frame.getBoundingClientRect().top + scrollY;
    img.style.maxHeight = Math.max(192, innerHeight - top - 28) + "px";
    zoom.apply();
  };
  addEventListener("resize", fit);
  img.addEventListener("load", fit);
  let shownKey = "";
  const update = (v) => {
    const key = JSON.stringify(v);
    if (key === shownKey) return;
    shownKey = key;
    check.textContent = v.text + ".";
    after.textContent = v.after ? "Met after step " + v.after.n + ": " + v.after.what : "";
    after.hidden = !v.after;
    zoom.set(v.box);
    if (v.checking) {
      resume.disabled = true;
      tell(feedback, "run", v.checking === "page" ? "Resumed: checking whether the check is gone…" : "Resumed at the terminal: checking whether the check is gone…");
    } else {
      resume.disabled = false;
      if (v.still) tell(feedback, "bad", "Still there: the page still shows the check. Solve it on the picture, then press Resume again.");
      else if (feedback.dataset.tone !== "bad") tell(feedback, "", "");
    }
    requestAnimationFrame(fit);
  };
  return { panel, update };
}
function tell(node, tone, text) { node.dataset.tone = tone; node.textContent = text; }

// The picture of the page the check is on: after each input (counted apart), and every 3 s while
// the check waits (a check moves by itself: a spinner, a page that passes), sooner again when one
// could not be taken.
function pictureInput(run, img) {
  let chain = Promise.resolve();
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
  tick();
}
`;
