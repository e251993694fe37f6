import assert from "node:assert/strict";
import { maskUrlCredentials, SecretMask, urlCredentials } from "../internal/entity/mod.ts";
import { SecretVault } from "../internal/agent/mod.ts";
import { formsIn, transformedForms } from "./support/secret_forms.ts";

const SECRET = "T:Zq7-sec5-PassW0rd";

Deno.test("SecretMask.text() masks a secret as written and in every common transformed form", () => {
  const mask = new SecretMask({ PW: SECRET });
  for (const [form, { text }] of Object.entries(transformedForms(SECRET))) {
    const out = mask.text(`before ${text} after`);
    assert.ok(out.includes("{{secret:PW}}"), `${form}: ${out}`);
    assert.deepEqual(formsIn(out, SECRET), [], `${form} left in ${out}`);
  }
});

Deno.test("SecretMask.text() leaves ordinary text and placeholders alone, and short values only as written", () => {
  const mask = new SecretMask({ PIN: "1234", WORD: "secret" });
  assert.equal(mask.text("{{secret:WORD}} and 1 2 3 4"), "{{secret:WORD}} and 1 2 3 4");
  assert.equal(mask.text("pin 1234"), "pin {{secret:PIN}}");
  assert.equal(mask.text("nothing here"), "nothing here");
  assert.equal(new SecretMask().text("plain"), "plain");
});

Deno.test("SecretMask masks hidden values as •••• and deep values as text", () => {
  const mask = new SecretMask({}, { hidden: ["tok-123456"] });
  assert.deepEqual(mask.deep({ a: ["tok-123456"], b: 1 }), { a: ["••••"], b: 1 });
});

Deno.test("SecretVault.mask() is the one SecretMask: a base64 form of a secret is masked", () => {
  const vault = new SecretVault({ PW: SECRET });
  assert.equal(vault.mask(`x ${btoa(SECRET)}`), "x {{secret:PW}}");
});

Deno.test("maskUrlCredentials() masks user-info and credential parameters of every address", () => {
  assert.equal(
    maskUrlCredentials('Cannot attach to "ws://127.0.0.1:3001?token=WRONG" (401)'),
    'Cannot attach to "ws://127.0.0.1:3001?token=••••" (401)',
  );
  assert.equal(
    maskUrlCredentials("wss://me:pw@cloud.example/x?apiKey=k&region=eu and http://a.test/?q=1"),
    "wss://me:••••@cloud.example/x?apiKey=••••&region=eu and http://a.test/?q=1",
  );
  assert.equal(maskUrlCredentials("no address"), "no address");
  assert.deepEqual(urlCredentials("wss://me:pw@h/?token=abc&x=1"), ["pw", "abc"]);
  assert.deepEqual(urlCredentials("not a url"), []);
});

Deno.test("SecretMask.text() leaves a page's own addresses alone (a reset link's token is the page's)", () => {
  const link = "https://shop.test/reset?token=abc123def";
  assert.equal(new SecretMask({ PW: SECRET }).text(link), link);
});
