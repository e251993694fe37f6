import { LIVE_PANELS } from "./live_panels.ts";
import { LIVE_SCRIPT } from "./live_script.ts";
import { LIVE_STYLE } from "./live_style.ts";
import { LIVE_ZOOM } from "./live_zoom.ts";

/**
 * The live view's page: one self-contained file (no CDN, no build step), using only the JSON API
 * and the event stream. Landmarks, a live region for new steps, named buttons; usable at 400 px.
 * Its stylesheet is live_style.ts, its script live_script.ts, live_panels.ts and live_zoom.ts.
 */
export const LIVE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>browser-agent live view</title>
<link rel="icon" href="data:,">
<style>${LIVE_STYLE}</style>
</head>
<body>
<header class="bar">
  <p class="brand"><span class="mark" aria-hidden="true"></span>browser-agent <span class="muted">live view</span></p>
  <span id="status" class="label" role="status" data-tone="quiet">Connecting…</span>
  <span class="spacer"></span>
  <button id="stop" class="btn" type="button" hidden>Stop the run</button>
</header>
<main class="layout">
  <div class="col col-stage">
    <div id="attention" role="region" aria-label="Needs you"></div>
    <section id="screen" class="card screen" aria-labelledby="shot-title">
      <div class="card-head"><h2 id="shot-title" class="title">Screen</h2><span id="shot-tab" class="grow muted"></span>
        <button id="refresh" class="btn btn-quiet btn-small" type="button" aria-label="Refresh the screenshot">Refresh</button></div>
      <p id="shot-empty" class="empty">No picture yet.</p>
      <img id="shot" class="shot" alt="Screenshot of the current tab" hidden>
    </section>
  </div>
  <div class="col col-runs">
    <section class="runs" aria-labelledby="runs-title">
      <h1 id="runs-title" class="title">Runs</h1>
      <form id="next" class="card next" hidden><label for="next-task">Next task</label>
        <input id="next-task" type="text"> <button class="btn btn-primary" type="submit">Run task</button></form>
      <div id="runs" class="runs"><p class="card empty">No run yet.</p></div>
    </section>
    <aside class="side" aria-label="Browsers and modules">
      <section class="card" aria-labelledby="browsers-title"><h2 id="browsers-title" class="title card-head">Browsers and tabs</h2>
        <div id="browsers"><p class="empty">None open.</p></div></section>
      <section id="modules-card" class="card" aria-labelledby="modules-title" hidden><h2 id="modules-title" class="title card-head">Modules</h2>
        <div id="modules"></div></section>
      <div id="panels" class="side" aria-label="Module panels"></div>
    </aside>
  </div>
  <div id="announce" class="sr" aria-live="polite"></div>
</main>
<script>${LIVE_SCRIPT}${LIVE_PANELS}${LIVE_ZOOM}</script>
</body>
</html>
`;
