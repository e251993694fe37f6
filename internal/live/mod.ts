/**
 * The live view (`--ui`): a local web page to watch and steer runs — their steps, questions and
 * held actions, the browsers and tabs, a screenshot, module panels — served on 127.0.0.1 behind
 * an unguessable token. {@link LiveHub} is what front-ends feed and what the page reads;
 * {@link startLiveServer} serves it. Builds on `tools` and `entity`.
 *
 * @module
 */
export {
  type LiveBrowser,
  type LiveEvent,
  LiveHub,
  type LiveModule,
  type LivePanel,
  type LiveRunState,
  type LiveStep,
  LiveTimeoutError,
} from "./live_hub.ts";
export { type LiveHandOff, LiveRun, type LiveVerification } from "./live_run.ts";
export { type LiveServer, startLiveServer } from "./live_server.ts";
