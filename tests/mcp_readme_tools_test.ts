import assert from "node:assert/strict";
import { startMcp } from "./support/mcp_client.ts";

/**
 * The MCP tool names the README writes: `browser_name` anywhere, and the siblings written after
 * one with slashes (`browser_back`/`forward` names browser_forward too).
 */
function readmeToolNames(readme: string): Set<string> {
  const names = new Set<string>();
  for (const m of readme.matchAll(/`(browser_[a-z_]+)(?:\([^`]*\))?`((?:\/`[a-z_]+`)*)/g)) {
    const first = m[1]!;
    names.add(first);
    const stem = first.slice(0, first.lastIndexOf("_") + 1);
    for (const sibling of m[2]!.matchAll(/`([a-z_]+)`/g)) names.add(stem + sibling[1]);
  }
  return names;
}

Deno.test("the README names exactly the MCP server's tools", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  await using mcp = await startMcp();
  const { tools } = await mcp.client.listTools();
  const served = new Set(tools.map((t) => t.name).filter((n) => n.startsWith("browser_")));
  const written = readmeToolNames(readme);
  assert.deepEqual([...written].filter((n) => !served.has(n)).sort(), [], "named, not served");
  assert.deepEqual([...served].filter((n) => !written.has(n)).sort(), [], "served, not named");
  const count = /The whole tool list \((\d+) tools/.exec(readme)?.[1];
  assert.equal(Number(count), tools.length, "the README's count of the tool list");
});
