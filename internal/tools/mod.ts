/**
 * The one tool registry: declarative tools (one object each: arguments defined once with zod,
 * which gives the handler's type, the validation and the JSON Schema) shared by the agent loop,
 * the MCP server and modules; `dispatch` validates, runs, and turns every failure into a result
 * with an error kind. Also the one action policy ({@link ActionPolicy}) that
 * judges destructive calls for all three front-ends. Builds on `browser` and `entity`.
 *
 * Where things are: the agent's tools (`core_tools.ts`, `action_tools.ts`, `observe_tools.ts`,
 * `dialog_tool.ts`, `page_tool.ts` for the tools a page declares, `vision_tools.ts` for those
 * offered only with pictures),
 * tools and their schemas (`tool.ts`, `arg_schema.ts`), the registry and validation
 * (`registry.ts`, `check_args.ts`), safety (`action_policy.ts`,
 * `safety.ts`, `safety_words.ts`), what a call targets (`target.ts`).
 *
 * @module
 */
export {
  askUser,
  click,
  coreTools,
  done,
  navigate,
  normalizeUrl,
  press,
  scroll,
  type,
} from "./core_tools.ts";
export { closeTab, goBack, selectTool, switchTab, upload } from "./action_tools.ts";
export {
  boxPoint,
  drag,
  type DragArgs,
  dragCall,
  hover,
  POINT,
  selectTextTool,
} from "./verb_tools.ts";
export { clickAt, dragAt, hoverAt } from "./point_tools.ts";
export { find, observeTools, read } from "./observe_tools.ts";
export { closerPicture, visionTools, zoom } from "./vision_tools.ts";
export { answerActsAs, promptAnswer } from "./dialog_tool.ts";
export { pageTool, pageToolActsAs } from "./page_tool.ts";
export { ToolRegistry } from "./registry.ts";
export { assessRisk, type Risk, type RiskCategory, riskKind, type RiskOptions } from "./safety.ts";
export {
  ActionPolicy,
  type Answer,
  type Decision,
  type PolicyEvent,
  type PolicyOptions,
  type StateSource,
} from "./action_policy.ts";
export { describeTarget, idOf, locate, type Located } from "./target.ts";
export { describeCall } from "./call_line.ts";
export {
  actionResult,
  actOptions,
  type ActsAs,
  agreeingResult,
  CONFIRM,
  defineTool,
  EFFECTS,
  type PointCall,
  type Tool,
  type ToolContext,
  type ToolDefinition,
  type ToolFacts,
  withLaterDownloads,
  withNote,
} from "./tool.ts";
/** What packages that may not import `browser` themselves need of it. */
export {
  type BoxPoint,
  type BrowserPort,
  type HumanInput,
  type PromptAnswer,
  renderDownload,
  renderElement,
  renderOutcome,
  renderWall,
  WAITS,
} from "../browser/mod.ts";
export { validateArgs, type ValidateOptions } from "./check_args.ts";
export {
  ARG_LIMITS,
  argsFromJson,
  type ArgsJson,
  argsJsonSchema,
  type ArgsSchema,
} from "./arg_schema.ts";
