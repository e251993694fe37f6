import assert from "node:assert/strict";
import { bundleRuntime } from "../scripts/bundle_runtime.ts";

const BROWSER = new URL("../internal/browser/", import.meta.url);
const BUNDLE = new URL("runtime/runtime_bundle.ts", BROWSER);

Deno.test("bundleRuntime() reproduces the committed runtime_bundle.ts (run deno task bundle when this fails)", async () => {
  assert.equal(await Deno.readTextFile(BUNDLE), await bundleRuntime());
});

Deno.test("The in-page runtime writes each shared rule once", async () => {
  const sources = await browserSources();
  // Each rule: a pattern its one definition matches, the file that holds it, and where no other
  // may be: anywhere in internal/browser (the Deno side imports the runtime's text rules too).
  const rules: [string, RegExp, string, string][] = [
    ["clean()", /function clean\(|const clean\s*=/, "shared/text.ts", ""],
    ["cut()", /function cut\(|const cut\s*=/, "shared/text.ts", ""],
    ["norm()", /function norm\(|const norm\s*=/, "shared/text.ts", ""],
    ["the busy line", /please wait/, "page/settle/busy.ts", ""],
    ["the deep active element", /shadowRoot\??\.activeElement/, "page/core/dom.ts", ""],
    [
      "the implicit role table",
      /return "spinbutton"|number: "spinbutton"/,
      "page/core/roles.ts",
      "",
    ],
    ["the accessible name", /getAttribute\("aria-labelledby"\)/, "page/core/names.ts", ""],
    ["frame numbering", /frames\.next\+\+/, "page/core/dom.ts", ""],
    [
      "the runtime's global",
      /"__browserAgent\w*"|__browserAgent\w*\??:/,
      "shared/runtime_global.ts",
      "",
    ],
  ];
  for (const [rule, pattern, home, under] of rules) {
    const holders = [...sources]
      .filter(([path, text]) => path.startsWith(under) && pattern.test(text))
      .map(([path]) => path);
    assert.deepEqual(holders, [home], `${rule} is written in ${holders.join(", ") || "no file"}`);
  }
});

/** Every TypeScript file under internal/browser but the generated bundle, by relative path. */
async function browserSources(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: URL, prefix: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = prefix + entry.name;
      if (entry.isDirectory) await walk(new URL(`${entry.name}/`, dir), `${path}/`);
      else if (entry.name.endsWith(".ts") && path !== "runtime/runtime_bundle.ts") {
        out.set(path, await Deno.readTextFile(new URL(entry.name, dir)));
      }
    }
  };
  await walk(BROWSER, "");
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}
