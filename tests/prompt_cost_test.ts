import assert from "node:assert/strict";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { requestTools, systemPrompt } from "../internal/llm/mod.ts";
import { coreTools, ToolRegistry } from "../internal/tools/mod.ts";

Deno.test("the fixed part of a request (system prompt and tool list) is at most 1,500 tokens", () => {
  const system = encode(systemPrompt()).length;
  const tools = encode(JSON.stringify(requestTools(new ToolRegistry(coreTools).specs()))).length;
  assert.ok(system + tools <= 1500, `system ${system} + tools ${tools} = ${system + tools} tokens`);
});
