/// <reference lib="dom" />
/**
 * The main world's entry: the recorders that must see the page's own calls, installed in the
 * page's world of every new document before its scripts run (the isolated runtime cannot see
 * them): the tools the page declares for agents (`page/webmcp/model_context.ts`), which elements
 * scripts make operable, and how (`page/observe/listeners.ts`) and the work an action sets off
 * (`page/settle/recorder.ts`). `scripts/bundle_runtime.ts` bundles it into the
 * body of a function of the per-run token (`runtime/main_world_bundle.ts`).
 *
 * @module
 */
import { recordListenerSigns } from "./observe/listeners.ts";
import { recordActionWork } from "./settle/recorder.ts";
import { installModelContext } from "./webmcp/model_context.ts";

/** The per-run token: the parameter of the function the bundle is the body of. */
declare const MAIN_WORLD_TOKEN: string;

// First: it keeps the built-ins it talks with before the recorders wrap them.
installModelContext(MAIN_WORLD_TOKEN);
recordListenerSigns(MAIN_WORLD_TOKEN);
recordActionWork(MAIN_WORLD_TOKEN);
