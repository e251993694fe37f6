/// <reference lib="dom" />
/**
 * The in-page runtime's entry: the table of functions the Deno side calls by name (through
 * `page_runtime.ts`), installed with the runtime's version on the isolated world's one global.
 * `scripts/bundle_runtime.ts` bundles this module graph into `runtime_bundle.ts`; evaluating
 * that source in a document installs the runtime there.
 *
 * Everything here runs in puppeteer's isolated world: the same DOM as the page, but its own
 * globals, so page scripts that replace `Array.prototype.map`, `JSON` or `querySelectorAll`
 * cannot break or fool it.
 *
 * @module
 */
import { activityTracker } from "./core/activity.ts";
import { closeBanner } from "./banners/banners.ts";
import {
  clickByScript,
  holdsFocus,
  pointerOver,
  readiness,
  throughFrame,
} from "./actions/actionable.ts";
import { frameId } from "./core/dom.ts";
import { measureEffects } from "./measure.ts";
import { hideFieldText, showFieldText } from "./actions/field_text.ts";
import { hideSecretText, showSecretText } from "./screenshots/secret_text.ts";
import { controlKind, fileInputFor, prepareField, setFieldValue } from "./actions/fields.ts";
import { focusedElementInfo, focusedState } from "./observe/focus.ts";
import { settleState } from "./settle/settle_state.ts";
import {
  chooseNativeOption,
  findCustomOption,
  lastSeenOptions,
  optionText,
} from "./actions/options.ts";
import { clearOverlay, drawOverlay, overlayLayout } from "./actions/overlay.ts";
import { elementByLocalId, linkHref } from "./core/refs.ts";
import { resizeGrip } from "./core/resize_grip.ts";
import { elementIdentities } from "./observe/identity.ts";
import {
  centreElement,
  revealElement,
  scrollBy,
  scrollGrowth,
  scrollWindow,
} from "./actions/scroll.ts";
import { install } from "./core/state.ts";
import {
  elementWithText,
  holdsText,
  nativeDraggable,
  selectTextIn,
} from "./actions/select_text.ts";
import { described, elementAtPoint, intoFrame, pictureScale } from "./actions/point.ts";
import { scrollSideways } from "./actions/scroll_sideways.ts";
import { walkFrame } from "./observe/walk/walk_frame.ts";
import { progressShows } from "./actions/wait_text.ts";
import { verificationWall, viewportSize } from "./verification/walls.ts";
import { callDeclaredTool, declaredTools } from "./webmcp/declared_tools.ts";

/** The functions callable from Deno, by name. A function that acts on an element takes it first. */
export const api = {
  walkFrame,
  elementByLocalId,
  elementIdentities,
  frameIdOf: frameId,
  linkHref,
  drawOverlay,
  clearOverlay,
  overlayLayout,
  closeBanner,
  settleState,
  scrollBy,
  scrollGrowth,
  revealElement,
  centreElement,
  scrollWindow,
  readiness,
  pointerOver,
  throughFrame,
  clickByScript,
  holdsFocus,
  prepareField,
  setFieldValue,
  controlKind,
  fileInputFor,
  chooseNativeOption,
  findCustomOption,
  lastSeenOptions,
  optionText,
  measureEffects,
  focusedElementInfo,
  focusedState,
  progressShows,
  hideFieldText,
  showFieldText,
  hideSecretText,
  showSecretText,
  verificationWall,
  viewportSize,
  // The verbs beyond a click (hover and drag need nothing in the page but the checks).
  selectTextIn,
  elementWithText,
  holdsText,
  nativeDraggable,
  resizeGrip,
  scrollSideways,
  // Points: what a screenshot's point shows, into a frame, the picture's scale.
  elementAtPoint,
  intoFrame,
  described,
  pictureScale,
  // The tools the page declares for agents (WebMCP).
  declaredTools,
  callDeclaredTool,
};

/** The runtime's API table. */
export type RuntimeApi = typeof api;

/** The hash of the bundled source, stamped in by `scripts/bundle_runtime.ts`. */
declare const RUNTIME_VERSION: string;

if (typeof document !== "undefined") {
  install(RUNTIME_VERSION, api);
  // Installed as the document is created (or on demand): watching its changes from now on, the
  // quiet time settling asks for counts from its real last change.
  activityTracker();
}
