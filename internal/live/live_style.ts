/**
 * The live view's stylesheet: system fonts, one palette (light and dark), status as coloured
 * labels, and two layouts — runs beside a large picture from 960 px, one column below, where what
 * needs the person comes first. Panels that need the person (a question, a held action, a check
 * to solve) are framed in their colour; the picture of the page is drawn once.
 */
export const LIVE_STYLE = `
:root {
  color-scheme: light dark;
  --bg: #f4f5f7; --card: #fff; --ink: #17191c; --muted: #5a6270; --line: #dfe3e8; --line-strong: #c5ccd5;
  --blue: #1d5bd6; --blue-soft: #e7eefc; --green: #1d7a3a; --green-soft: #e5f4ea;
  --amber: #955300; --amber-soft: #fff2dc; --amber-line: #e6a23c;
  --red: #b71c1c; --red-soft: #fdeaea; --red-line: #e49a9a; --grey-soft: #eceef1;
  --radius: 10px;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--ink); background: var(--bg);
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #111418; --card: #1a1e24; --ink: #e6e8eb; --muted: #a0a8b4; --line: #2c333c; --line-strong: #3d4651;
    --blue: #7aa7ff; --blue-soft: #1c2a44; --green: #6fcf8e; --green-soft: #17301f;
    --amber: #f3b45c; --amber-soft: #33260f; --amber-line: #a8741f;
    --red-soft: #3a1a1a; --red-line: #8c3a3a; --grey-soft: #252a31;
  }
}
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; }
h1, h2, h3, p { margin: 0; }
code, .mono { font-family: ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: .9em; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
[hidden] { display: none !important; }

.bar { position: sticky; top: 0; z-index: 2; display: flex; align-items: center; gap: .75rem; flex-wrap: wrap;
  padding: .6rem 1.25rem; background: var(--card); border-bottom: 1px solid var(--line); }
.brand { display: flex; align-items: center; gap: .5rem; font-weight: 650; font-size: 1rem; }
.brand .mark { width: .8rem; height: .8rem; border-radius: 50%; background: var(--blue); box-shadow: 0 0 0 3px var(--blue-soft); }
.brand .muted { font-weight: 400; }
.bar .spacer { flex: 1; }
.muted { color: var(--muted); }

.label { display: inline-flex; align-items: center; gap: .4rem; padding: .1rem .6rem; border-radius: 999px;
  font-size: .8rem; font-weight: 600; white-space: nowrap; background: var(--grey-soft); color: var(--muted); }
.label::before { content: ""; width: .45rem; height: .45rem; border-radius: 50%; background: currentColor; }
.label[data-tone=run] { background: var(--blue-soft); color: var(--blue); }
.label[data-tone=ok] { background: var(--green-soft); color: var(--green); }
.label[data-tone=wait] { background: var(--amber-soft); color: var(--amber); }
.label[data-tone=bad] { background: var(--red-soft); color: var(--red); }

.btn { font: inherit; font-weight: 600; font-size: .9rem; line-height: 1.3; padding: .45rem .95rem; border-radius: 8px;
  border: 1px solid var(--line-strong); background: var(--card); color: var(--ink); cursor: pointer; }
.btn:hover { background: var(--bg); }
.btn:focus-visible, .shot.act:focus-visible, input:focus-visible { outline: 3px solid var(--blue); outline-offset: 2px; }
.btn:disabled { opacity: .55; cursor: default; }
.btn-primary { background: var(--blue); border-color: var(--blue); color: #fff; }
.btn-primary:hover { background: var(--blue); filter: brightness(1.08); }
.btn.risky { background: #b71c1c; border-color: #8e1414; color: #fff; }
.btn.risky:hover { background: #b71c1c; filter: brightness(1.1); }
.btn-quiet { border-color: transparent; background: transparent; color: var(--muted); }
.btn-small { font-size: .8rem; padding: .2rem .55rem; }
input[type=text] { font: inherit; padding: .45rem .65rem; border: 1px solid var(--line-strong); border-radius: 8px;
  background: var(--card); color: var(--ink); min-width: 0; flex: 1; }

.layout { display: grid; gap: 1.25rem; padding: 1.25rem; max-width: 1600px; margin: 0 auto; }
.col { display: flex; flex-direction: column; gap: 1.25rem; min-width: 0; }
@media (min-width: 960px) {
  .layout { grid-template-columns: minmax(20rem, 25rem) minmax(0, 1fr); align-items: start; }
  .col-stage { grid-column: 2; grid-row: 1; }
  .col-runs { grid-column: 1; grid-row: 1; }
}
@media (max-width: 959px) {
  .layout { padding: .75rem; gap: .75rem; }
  .bar { padding: .5rem .75rem; gap: .5rem; }
  .bar .btn { font-size: .8rem; padding: .3rem .7rem; }
  .brand .muted { display: none; }
  .col { display: contents; }
  #attention { order: 1; } .runs { order: 2; } .screen { order: 3; } .side { order: 4; }
  /* Where the page asks for a person, its picture comes right under the panel's title. */
  .panel.wall > * { order: 2; } .panel.wall > .panel-head { order: 0; } .panel.wall > .picture { order: 1; }
}
#attention { display: flex; flex-direction: column; gap: 1rem; }
#attention:empty { display: none; }

.card, .panel { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); min-width: 0; }
.card { padding: 1rem; }
.card-head { display: flex; align-items: center; gap: .5rem; flex-wrap: wrap; margin-bottom: .6rem; }
.card-head .grow { flex: 1; min-width: 0; overflow-wrap: anywhere; }
.title { font-size: .75rem; font-weight: 650; letter-spacing: .06em; text-transform: uppercase; color: var(--muted); }
.empty { color: var(--muted); }

.runs { display: flex; flex-direction: column; gap: 1rem; }
.run-head { display: flex; align-items: center; gap: .6rem; margin-bottom: .4rem; font-size: .85rem; }
.task { font-size: 1.02rem; font-weight: 600; overflow-wrap: anywhere; }
ol.steps { list-style: none; padding: 0; margin: .75rem 0 0; display: flex; flex-direction: column; }
ol.steps > li { display: grid; grid-template-columns: 1.6rem minmax(0, 1fr); gap: .1rem .6rem; padding: .55rem 0;
  border-top: 1px solid var(--line); }
ol.steps .n { grid-row: span 3; width: 1.6rem; height: 1.6rem; border-radius: 50%; display: grid; place-items: center;
  font-size: .75rem; font-weight: 650; background: var(--grey-soft); color: var(--muted); }
.step.bad .n { background: var(--red-soft); color: var(--red); }
.line { font-weight: 600; overflow-wrap: anywhere; }
.line .ms { font-weight: 400; color: var(--muted); font-size: .85em; white-space: nowrap; }
.effect { overflow-wrap: anywhere; font-size: .9rem; }
.step.bad .effect { color: var(--red); }
.why { color: var(--muted); font-size: .85rem; overflow-wrap: anywhere; }
li.solved .n { background: var(--green-soft); color: var(--green); }
li.solved .line { color: var(--green); }
.thinking { margin-top: .6rem; color: var(--muted); font-style: italic; }
.result { margin-top: .75rem; padding: .6rem .75rem; background: var(--bg); border-radius: 8px; overflow-wrap: anywhere; }
.result code { color: var(--muted); margin-right: .4rem; }

.panel { padding: 1rem; display: flex; flex-direction: column; gap: .6rem; }
.panel.needs { border: 1px solid var(--amber-line); box-shadow: 0 0 0 3px var(--amber-soft); }
.panel.risk { border: 1px solid var(--red-line); box-shadow: 0 0 0 3px var(--red-soft); }
.panel-head { display: flex; align-items: center; gap: .6rem; flex-wrap: wrap; }
.panel-head h2 { font-size: 1.05rem; font-weight: 650; flex: 1; min-width: 12rem; }
.panel p { overflow-wrap: anywhere; }
.panel .check { font-weight: 600; }
.panel .hint, .panel .after, .panel .for-run { color: var(--muted); font-size: .88rem; }
.panel .actions { display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; }
.panel form { display: flex; gap: .5rem; flex-wrap: wrap; }
.feedback { font-size: .9rem; font-weight: 600; padding: .45rem .7rem; border-radius: 8px; }
.feedback[data-tone=run] { background: var(--blue-soft); color: var(--blue); }
.feedback[data-tone=bad] { background: var(--red-soft); color: var(--red); }
.feedback:empty { display: none; }

.shot { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
.screen .shot { width: 100%; max-height: calc(100vh - 9rem); object-fit: contain; object-position: left top; }
.shot.act { width: auto; cursor: crosshair; touch-action: none;
  user-select: none; -webkit-user-select: none; }
.picture { position: relative; align-self: flex-start; max-width: 100%; min-width: 0; }
/* Over the picture's corner, taking no room from it. */
.zoom-toggle { position: absolute; top: .4rem; right: .4rem; box-shadow: 0 1px 3px rgba(0, 0, 0, .25); }
/* Zoomed around the check: the picture is larger than its frame, which clips it. */
.zoom.zoomed { position: relative; overflow: hidden; border: 1px solid var(--line); border-radius: 6px; }
.zoom.zoomed > .shot { position: absolute; max-width: none; max-height: none !important; border: 0; border-radius: 0; }
.zoom.zoomed:focus-within { outline: 3px solid var(--blue); outline-offset: 2px; }
.zoom.zoomed > .shot:focus-visible { outline: none; }

.side { display: flex; flex-direction: column; gap: 1rem; }
.browser + .browser { margin-top: .75rem; }
.browser-head { display: flex; align-items: center; gap: .5rem; justify-content: space-between; }
ul.tabs { list-style: none; margin: .35rem 0 0; padding: 0; }
ul.tabs li { display: flex; align-items: center; gap: .25rem; border-radius: 8px; }
ul.tabs li.current { background: var(--blue-soft); }
.tab-pick { flex: 1; min-width: 0; text-align: left; font: inherit; background: none; border: 0; padding: .35rem .5rem;
  color: var(--ink); cursor: pointer; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; border-radius: 8px; }
li.current .tab-pick { font-weight: 600; color: var(--blue); }
.module + .module { margin-top: .4rem; }
iframe { width: 100%; min-height: 16rem; border: 1px solid var(--line); border-radius: 8px; background: var(--card); }
.next { display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; }
.next label { font-weight: 600; }
`;
