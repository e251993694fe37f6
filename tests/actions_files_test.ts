import assert from "node:assert/strict";
import { join } from "node:path";
import { BrowserSession } from "../internal/browser/mod.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { idIn } from "./support/summary.ts";
import { said } from "./support/said.ts";

const REPORT = "month,total\nJanuary,120\nFebruary,95\n";

function site() {
  return startFixtureServer({
    routes: [(_req, url) =>
      url.pathname === "/download/report.csv"
        ? new Response(REPORT, {
          headers: {
            "content-type": "text/csv",
            "content-disposition": 'attachment; filename="report.csv"',
          },
        })
        : undefined],
  });
}

Deno.test("a click that downloads waits for the file, saves it under its name, and renames the next one", async () => {
  await using server = site();
  const dir = await Deno.makeTempDir({ prefix: "actions-downloads-" });
  try {
    const downloads = join(dir, "saved");
    await using browser = await BrowserSession.start({ headless: true, downloadsDir: downloads });
    await said(browser.navigate(server.url("/actions/files.html")));
    const link = idIn((await browser.observe()).summary, /Download the report/);
    const first = await said(browser.click(link));
    const path1 = join(downloads, "report.csv");
    assert.match(first, /Downloaded "report\.csv" \(\d+ bytes\) to /);
    assert.ok(first.includes(path1), first);
    assert.equal(await Deno.readTextFile(path1), REPORT);

    const second = await said(browser.click(link));
    const path2 = join(downloads, "report (1).csv");
    assert.ok(
      second.includes(`Downloaded "report (1).csv" (${REPORT.length} bytes) to ${path2}`),
      second,
    );
    assert.equal(await Deno.readTextFile(path2), REPORT);
    assert.equal(await Deno.readTextFile(path1), REPORT, "the first file is never overwritten");
    // The page stayed where it was.
    assert.match((await browser.observe()).summary, /Download the report/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("upload sets a file input, answers a button's file chooser, and rejects a missing file", async () => {
  await using server = site();
  const dir = await Deno.makeTempDir({ prefix: "actions-upload-" });
  try {
    const cv = join(dir, "cv.txt");
    await Deno.writeTextFile(cv, "Ada Lovelace, analyst");
    await using browser = await BrowserSession.start({ headless: true });
    await said(browser.navigate(server.url("/actions/files.html")));
    const summary = (await browser.observe()).summary;
    const input = idIn(summary, /type=file/);
    const result = await said(browser.upload(input, cv));
    assert.match(result, new RegExp(`^Put "cv\\.txt" into \\[${input}\\]\\.`));
    assert.match((await browser.observe()).summary, /Picked: cv\.txt \(21 bytes\)/);

    const button = idIn(summary, /Choose a photo/);
    assert.match(
      await said(browser.upload(button, cv)),
      new RegExp(`^Clicked \\[${button}\\] and chose "cv\\.txt" in the file chooser`),
    );
    assert.match((await browser.observe()).summary, /Photo: cv\.txt/);

    await assert.rejects(
      () => browser.upload(input, join(dir, "missing.pdf")),
      /Cannot upload ".*missing\.pdf": no such file/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
