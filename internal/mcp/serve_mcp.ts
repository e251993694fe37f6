import { Server } from "@modelcontextprotocol/sdk/server";
// The SDK's "./*" export points types at "*.js.d.ts": name the declaration files directly.
// @ts-types="@modelcontextprotocol/sdk/types"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { type Tool, ToolRegistry } from "../tools/mod.ts";
import { GuardedStdioTransport } from "./guarded_stdio.ts";
import { type Answer, SafetyGate } from "./safety_gate.ts";
import { mcpTools } from "./tools/page_tools.ts";
import { visionTools } from "./tools/verb_tools.ts";
import { mcpVisionTools } from "./tools/vision_tools.ts";
import { toMcpTool } from "./tool_results.ts";
import { type McpBrowser, ToolCalls } from "./tool_calls.ts";

export { DRAIN_CALL_MS, type McpBrowser } from "./tool_calls.ts";

/** What {@link serveMcp} needs from `main.ts`. */
export interface McpOptions {
  /**
   * Starts (or attaches to) the browser; called on the first tool call, again if it failed, and
   * again when the browser was closed or crashed.
   */
  startBrowser: () => Promise<McpBrowser>;
  /** The program's version, told to clients. */
  version: string;
  /** Writes one line to stderr: stdout carries only protocol messages. */
  log: (line: string) => void;
  /** Stops serving (Ctrl+C, SIGTERM). */
  signal?: AbortSignal;
  /** `--yes`: destructive actions (pay, delete, send) run unasked; dialogs wait for the client. */
  confirmAll?: boolean;
  /** Tools served after the `browser_*` ones (the enabled modules'). */
  tools?: readonly Tool[];
  /**
   * The client asked for pictures (`mcp --vision`, as Playwright MCP's `--caps vision`): the tools
   * that act at a point of the screenshot and the closer picture are served too.
   */
  vision?: boolean;
  /** Masks secrets (`--secret` values, `--cdp-url` tokens) in every result and log line. */
  mask?: (text: string) => string;
}

const INSTRUCTIONS =
  "Act by number: browser_list_interactives shows [12] <button> …; then browser_overlay_act(index=12, action). List again after navigation or page changes. Actions that pay, delete or send are held until you ask the user and repeat them with confirm: true.";

/** How long the user has to answer a confirmation the client shows. */
const ASK_TIMEOUT_MS = 300_000;

/** Once the server closed, how long a call that does not heed its stop gets before its browser closes. */
const CLOSE_GRACE_MS = 5000;

/**
 * Serves the `browser_*` tools over stdio to one MCP client, with one browser, one call at a
 * time. When stdin ends it finishes the requests it received and answers each (a tool call still
 * running {@link DRAIN_CALL_MS} after that is stopped and answered as cancelled), then returns;
 * when `signal` aborts it stops at once. The browser is closed before it returns.
 *
 * @example
 * ```ts
 * await serveMcp({ startBrowser: () => BrowserSession.start({ headless: true }), version: "0.1.0", log: console.error });
 * ```
 */
export async function serveMcp(options: McpOptions): Promise<void> {
  const { log } = options;
  const registry = new ToolRegistry([
    ...mcpTools,
    ...options.vision ? [...visionTools, ...mcpVisionTools] : [],
    ...options.tools ?? [],
  ]);
  const server = new Server(
    { name: "browser-agent", version: options.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const gate = new SafetyGate({
    confirmAll: options.confirmAll ?? false,
    tools: registry.tools,
    ask: (question, signal) => askClient(server, question, signal, log),
    log,
  });
  // Disposed in reverse: the abort listener goes, then the browser is closed.
  await using scope = new AsyncDisposableStack();
  const calls = scope.use(
    new ToolCalls({
      registry,
      gate,
      startBrowser: options.startBrowser,
      log,
      ...(options.mask ? { mask: options.mask } : {}),
    }),
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: registry.tools.map(toMcpTool),
  }));
  // One call at a time: the next one starts when the previous one has finished.
  server.setRequestHandler(
    CallToolRequestSchema,
    (request, extra) =>
      calls.enqueue(request.params.name, request.params.arguments ?? {}, extra.signal),
  );
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  server.onerror = (error) => log(`mcp: ${error.message}`);
  const close = () => server.close().catch((error) => log(`mcp: cannot close cleanly: ${error}`));
  const stop = () => {
    if (calls.stopping) return;
    calls.stop();
    close();
  };
  options.signal?.addEventListener("abort", stop, { once: true });
  scope.defer(() => options.signal?.removeEventListener("abort", stop));

  const transport = new GuardedStdioTransport({ log });
  // The client's input ended: every request it sent is finished and answered, then we close.
  transport.oninputend = () => {
    calls.endInput();
    const left = transport.unanswered;
    if (left > 0) log(`mcp: input ended; finishing ${left} request(s) before exiting`);
    transport.answered().then(() => {
      if (!calls.stopping) close();
    });
  };
  await server.connect(transport);
  log(`mcp: browser-agent ${options.version} serving ${registry.tools.length} tools on stdio`);
  await closed;
  // The running call was told to stop; one that does not gets a few seconds, then its browser
  // is closed under it, so the server always ends.
  await calls.idle(CLOSE_GRACE_MS);
}

/** Asks the user through the client (a form with one yes/no), when the client can show one. */
async function askClient(
  server: Server,
  question: string,
  signal: AbortSignal,
  log: (line: string) => void,
): Promise<Answer> {
  if (!server.getClientCapabilities()?.elicitation?.form) return "unasked";
  try {
    const answer = await server.elicitInput({
      message: question,
      requestedSchema: {
        type: "object",
        properties: { allow: { type: "boolean", title: "Allow this action" } },
        required: ["allow"],
      },
    }, { signal, timeout: ASK_TIMEOUT_MS });
    if (answer.action === "cancel") return "unasked";
    return answer.action === "accept" && answer.content?.allow === true ? "yes" : "no";
  } catch (error) {
    // No answer (timeout, a client error): the call is held, and says how to confirm it.
    log(`mcp: cannot ask the user: ${error instanceof Error ? error.message : error}`);
    return "unasked";
  }
}
