import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's "./*" export points types at "*.js.d.ts": name the declaration file directly.
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { baseEnv } from "./run_cli.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;

/** One tool call's answer, unpacked: the contract's fields plus what the model reads. */
export interface McpAnswer {
  status: "ok" | "error";
  error?: string;
  /** Why it failed (`gone`, `held`, `invalid_args`, …). */
  kind?: string;
  data?: Record<string, unknown>;
  /** The text content. */
  text: string;
  isError: boolean;
  images: { mimeType: string; data: string }[];
}

/** A connected MCP client talking to a real `browser-agent mcp` subprocess. */
export interface McpSession extends AsyncDisposable {
  client: Client;
  /** Calls a tool and unpacks its result. */
  call(name: string, args?: Record<string, unknown>): Promise<McpAnswer>;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** The server process's ID (its browser is a child of it). */
  pid: number;
}

/**
 * Starts `deno run main.ts mcp` with a clean environment and connects the SDK's stdio client.
 *
 * @example
 * ```ts
 * await using mcp = await startMcp();
 * const answer = await mcp.call("browser_navigate", { url: site.url("/") });
 * ```
 */
export async function startMcp(
  options: {
    args?: string[];
    /** Variables the server gets besides the clean ones (`SECRET_PW`). */
    env?: Record<string, string>;
    /** Makes the client support elicitation, answering each question (its message) so. */
    elicit?: (message: string) => ElicitResult;
  } = {},
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "--allow-all", "--quiet", MAIN, "mcp", "--headless", ...(options.args ?? [])],
    cwd: ROOT,
    env: { ...baseEnv(), ...options.env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
  const elicit = options.elicit;
  const client = new Client(
    { name: "browser-agent-tests", version: "0.0.0" },
    elicit ? { capabilities: { elicitation: {} } } : {},
  );
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
  }
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    pid: transport.pid!,
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as {
        type: string;
        text?: string;
        data?: string;
        mimeType?: string;
      }[];
      const structured = result.structuredContent as
        | {
          status: "ok" | "error";
          error?: string;
          kind?: string;
          data?: Record<string, unknown>;
        }
        | undefined;
      if (!structured) throw new Error(`${name} returned no structured content`);
      return {
        ...structured,
        text: content.filter((c) => c.type === "text").map((c) => c.text).join("\n"),
        isError: result.isError === true,
        images: content.filter((c) => c.type === "image").map((c) => ({
          mimeType: c.mimeType!,
          data: c.data!,
        })),
      };
    },
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}

/**
 * A raw `main.ts mcp --headless` process (with `args` after it) with piped stdin, stdout and
 * stderr (no SDK client).
 */
export function spawnRawMcp(args: readonly string[] = []): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", MAIN, "mcp", "--headless", ...args],
    clearEnv: true,
    env: baseEnv(),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}
