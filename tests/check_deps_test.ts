import assert from "node:assert/strict";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;

/** Copies what check_deps reads into a temporary project, changes one file, runs the check. */
async function checkWith(
  file: string,
  change: (source: string) => string,
  added: Record<string, string> = {},
): Promise<{ code: number; stderr: string }> {
  const dir = await Deno.makeTempDir({ prefix: "check-deps-" });
  try {
    for (const name of ["internal", "cli", "scripts"]) {
      await new Deno.Command("cp", { args: ["-r", join(root, name), dir] }).output();
    }
    for (const name of ["main.ts", "deno.json", "deno.lock"]) {
      await Deno.copyFile(join(root, name), join(dir, name));
    }
    const path = join(dir, file);
    await Deno.writeTextFile(path, change(await Deno.readTextFile(path)));
    for (const [name, text] of Object.entries(added)) {
      await Deno.mkdir(join(dir, name, ".."), { recursive: true });
      await Deno.writeTextFile(join(dir, name), text);
    }
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-read", "--allow-run", join(dir, "scripts/check_deps.ts"), dir],
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("check_deps passes on the tree as it is", async () => {
  const { code, stderr } = await checkWith("main.ts", (s) => s);
  assert.equal(code, 0, stderr);
});

Deno.test("check_deps rejects puppeteer, openai and the MCP SDK outside their one package", async () => {
  const tools = await checkWith(
    "internal/tools/tool.ts",
    (s) => `import type { Page } from "puppeteer-core";\nexport type P = Page;\n${s}`,
  );
  assert.equal(tools.code, 1);
  assert.match(
    tools.stderr,
    /internal\/tools\/tool\.ts imports "puppeteer-core": only internal\/browser may use it/,
  );
  const agent = await checkWith(
    "internal/agent/run_task.ts",
    (s) => `import "openai";\nimport "@modelcontextprotocol/sdk/server";\n${s}`,
  );
  assert.match(agent.stderr, /imports "openai": only internal\/llm may use it/);
  assert.match(
    agent.stderr,
    /imports "@modelcontextprotocol\/sdk\/server": only internal\/mcp may use it/,
  );
});

Deno.test("check_deps rejects a puppeteer type in what internal/browser/mod.ts exports", async () => {
  const { code, stderr } = await checkWith(
    "internal/browser/mod.ts",
    (s) => `${s}\nexport type { ElementHandle, Page } from "puppeteer-core";\n`,
  );
  assert.equal(code, 1);
  assert.match(stderr, /exports puppeteer's type "Page"/);
});

Deno.test("check_deps rejects an import loop between files, type-only imports included", async () => {
  const { code, stderr } = await checkWith(
    "internal/agent/evidence.ts",
    (s) => `import type { StepActor } from "./step_actor.ts";\nexport type A = StepActor;\n${s}`,
  );
  assert.equal(code, 1);
  assert.match(
    stderr,
    /import loop among 2 files \(internal\/agent\/evidence\.ts, internal\/agent\/step_actor\.ts\): move what they share to a file both import/,
  );
});

Deno.test("check_deps rejects a folder of internal/browser that FOLDERS does not list", async () => {
  const { code, stderr } = await checkWith("main.ts", (s) => s, {
    "internal/browser/forms/forms.ts": "export const forms = 1;\n",
  });
  assert.equal(code, 1);
  assert.equal(
    stderr.trim(),
    "internal/browser/forms/ is not a known feature: add it to FOLDERS in scripts/browser_layers.ts " +
      "with the folders it may import",
  );
});

Deno.test("check_deps rejects a folder of internal/browser importing one outside its row in FOLDERS", async () => {
  const { code, stderr } = await checkWith(
    "internal/browser/domains/navigation_guard.ts",
    (s) => `import type { renderOutcome } from "../outcome/render_outcome.ts";\n${s}`,
  );
  assert.equal(code, 1);
  assert.equal(
    stderr.trim(),
    'internal/browser/domains/navigation_guard.ts imports "../outcome/render_outcome.ts": "domains" ' +
      'may import only shared, not "outcome"; move what both need below them (page/core/ or ' +
      'shared/), or add "outcome" to its row in FOLDERS (scripts/browser_layers.ts) if that ' +
      "closes no circle",
  );
});

Deno.test("check_deps rejects an import back up between host folders of internal/browser as a folder circle", async () => {
  const { code, stderr } = await checkWith(
    "internal/browser/tabs/tab_steps.ts",
    (s) =>
      `import type { ActionEnv } from "../actions/action_runner.ts";\nexport type E = ActionEnv;\n${s}`,
  );
  assert.equal(code, 1);
  assert.match(
    stderr,
    /tab_steps\.ts imports "\.\.\/actions\/action_runner\.ts": "tabs" may import only/,
  );
  assert.match(
    stderr,
    /folders import each other in a circle: actions → tabs \(actions\/[a-z_]+\.ts\), tabs → actions \(tabs\/tab_steps\.ts\)/,
  );
});

Deno.test("check_deps rejects a primitive of the page library importing a page feature", async () => {
  const { code, stderr } = await checkWith(
    "internal/browser/page/core/dom.ts",
    (s) => `import { idFor } from "../observe/walk/describe.ts";\nexport const X = idFor;\n${s}`,
  );
  assert.equal(code, 1);
  assert.match(
    stderr,
    /page\/core\/dom\.ts imports "\.\.\/observe\/walk\/describe\.ts": "page\/core" may import only shared, not "page\/observe"/,
  );
  assert.match(stderr, /folders import each other in a circle: page\/core → page\/observe/);
});

Deno.test("check_deps rejects a page feature importing another page feature, and page code importing the host", async () => {
  const { code, stderr } = await checkWith(
    "internal/browser/page/effects/effect_text.ts",
    (s) =>
      `import { busySigns } from "../settle/busy.ts";\nimport { SETTLE } from "../../settle/network.ts";\nexport const X = [busySigns, SETTLE];\n${s}`,
  );
  assert.equal(code, 1);
  assert.match(
    stderr,
    /effect_text\.ts imports "\.\.\/settle\/busy\.ts": "page\/effects" may import only page\/core, shared, not "page\/settle"/,
  );
  assert.match(
    stderr,
    /imports "\.\.\/\.\.\/settle\/network\.ts": in-page code imports only page\/ code and shared\//,
  );
});

Deno.test("check_deps rejects a row of FOLDERS that closes a circle", async () => {
  const { code, stderr } = await checkWith(
    "scripts/browser_layers.ts",
    (s) =>
      s.replace(
        '  banners: ["runtime"],',
        '  banners: ["runtime"],\n  "page/core": ["page/observe"],',
      )
        .replace('  "page/core": [],\n', ""),
  );
  assert.equal(code, 1);
  assert.match(
    stderr,
    /the rows of FOLDERS form a circle \(page\/core → page\/observe → page\/core\): a folder lists only folders below it/,
  );
});
