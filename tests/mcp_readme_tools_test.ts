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

Deno.test("the README names exactly the MCP server's tools, with --vision and without", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const names = async (args: string[]) => {
    await using mcp = await startMcp({ args });
    const { tools } = await mcp.client.listTools();
    return tools.map((t) => t.name).filter((n) => n.startsWith("browser_"));
  };
  const plain = await names([]);
  const vision = await names(["--vision"]);
  const served = new Set([...plain, ...vision]);
  const written = readmeToolNames(readme);
  assert.deepEqual([...written].filter((n) => !served.has(n)).sort(), [], "named, not served");
  assert.deepEqual([...served].filter((n) => !written.has(n)).sort(), [], "served, not named");
  const count = /The whole tool list \((\d+) tools/.exec(readme)?.[1];
  assert.equal(Number(count), plain.length, "the README's count of the tool list");
  // What --vision adds is what the README says it adds ("… gets four tools more …").
  const more = /starts the server with `--vision`[^]*?gets (\w+) tools more/.exec(readme)?.[1];
  const added = vision.filter((n) => !plain.includes(n));
  assert.equal(more, ["zero", "one", "two", "three", "four", "five", "six"][added.length]);
});
