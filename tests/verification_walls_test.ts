import assert from "node:assert/strict";
import { BrowserSession } from "../internal/browser/mod.ts";
import { pageOf } from "../internal/browser/testing.ts";
import {
  CONTAINERS,
  frameRowFor,
  FRAMES,
  INTERSTITIAL_MARKERS,
  scriptRowFor,
} from "../internal/browser/shared/wall_policy.ts";
import { startFixtureServer } from "./support/fixture_server.ts";
import { wallFrames } from "./support/wall_frames.ts";

// One browser for the file: each test opens its page in it.
async function withPages(
  use: (look: (path: string) => ReturnType<BrowserSession["verification"]>) => Promise<void>,
) {
  await using site = startFixtureServer({ routes: [wallFrames] });
  await using browser = await BrowserSession.start({ headless: true, closeBanners: false });
  await use(async (path) => {
    await browser.navigate(site.url(path));
    return await browser.verification();
  });
}

Deno.test("verification() names a Cloudflare-style interstitial by its title, markers and text", async () => {
  await withPages(async (look) => {
    const wall = await look("/walls/interstitial.html");
    assert.equal(wall?.kind, "cloudflare_challenge");
    assert.equal(wall?.name, "Cloudflare challenge page");
    assert.match(wall!.url, /\/walls\/interstitial\.html$/);
    assert.match(wall!.where, /^the page \(title "Just a moment\.\.\.", #challenge-/);
    assert.equal(wall?.passes, true);
    // In Russian: its title, a marker and its text.
    const ru = await look("/walls/interstitial_ru.html");
    assert.equal(ru?.kind, "cloudflare_challenge");
    assert.match(ru!.where, /title "Один момент…"/);
  });
});

Deno.test("verification() finds a Turnstile widget, and a reCAPTCHA and an hCaptcha frame in a form", async () => {
  await withPages(async (look) => {
    const turnstile = await look("/walls/turnstile.html");
    assert.deepEqual(
      [turnstile?.kind, turnstile?.name, turnstile?.passes],
      ["turnstile", "Cloudflare Turnstile", true],
    );
    assert.match(turnstile!.where, /^a frame from 127\.0\.0\.1:\d+\/cdn-cgi\/challenge-platform\//);

    const recaptcha = await look("/walls/recaptcha.html");
    assert.deepEqual([recaptcha?.kind, recaptcha?.name], ["recaptcha", "reCAPTCHA"]);
    assert.match(recaptcha!.where, /\/recaptcha\/api2\/anchor$/);
    assert.equal(recaptcha?.passes, undefined, "a reCAPTCHA never passes by itself");

    const hcaptcha = await look("/walls/hcaptcha_form.html");
    assert.deepEqual([hcaptcha?.kind, hcaptcha?.name], ["hcaptcha", "hCaptcha"]);
  });
});

Deno.test("verification() finds press and hold, a login page's CAPTCHA picture, a German check page and a check in a child frame", async () => {
  await withPages(async (look) => {
    const hold = await look("/walls/press_and_hold.html");
    assert.deepEqual([hold?.kind, hold?.where], ["press_and_hold", "div#px-captcha"]);

    const picture = await look("/walls/captcha_login.html");
    assert.equal(picture?.kind, "captcha_image");
    assert.equal(picture?.where, 'input[name="captcha_code"] beside img#captcha-img');

    // The words beside the check's own script.
    const de = await look("/walls/human_check_de.html");
    assert.equal(de?.kind, "human_check_page");
    assert.match(de!.name, /bestätigen Sie, dass Sie ein Mensch sind/);
    assert.match(de!.where, /a script from 127\.0\.0\.1:\d+/);

    const framed = await look("/walls/framed_login.html");
    assert.equal(framed?.kind, "recaptcha");
    assert.match(
      framed!.where,
      /\/recaptcha\/api2\/anchor in a frame from http:\/\/127\.0\.0\.1:\d+$/,
    );
    assert.match(framed!.url, /\/walls\/framed_login\.html$/, "the blocked page is the top one");
  });
});

Deno.test("verification() finds a Turnstile container and a reCAPTCHA frame inside web components' open shadow roots", async () => {
  await withPages(async (look) => {
    // Two open shadow roots deep; the frame itself sits in the container's closed shadow root.
    const turnstile = await look("/walls/shadow_turnstile.html");
    assert.deepEqual(
      [turnstile?.kind, turnstile?.name, turnstile?.where],
      ["turnstile", "Cloudflare Turnstile", "div.cf-turnstile inside captcha-box's shadow root"],
    );
    const recaptcha = await look("/walls/shadow_recaptcha.html");
    assert.equal(recaptcha?.kind, "recaptcha");
    assert.match(
      recaptcha!.where,
      /^a frame from 127\.0\.0\.1:\d+\/recaptcha\/api2\/anchor inside recaptcha-field's shadow root$/,
    );
    // A web component that asks to verify your email, with a "Verify" button, and a passed
    // widget whose token is in its light DOM are no checks.
    assert.equal(await look("/walls/shadow_quiet.html"), undefined);
  });
});

Deno.test('verification() knows a short page that holds the site back behind a check with nothing to act on; a sign-up form headed "Human Verification" with a tick box is no wall', async () => {
  await withPages(async (look) => {
    const bare = await look("/walls/checking_browser.html");
    assert.equal(bare?.kind, "human_check_page");
    assert.match(bare!.reason, /offers nothing else to do/);
    // A heading's words are no wall: its tick box, field and button are the model's to work.
    assert.equal(await look("/walls/human_verification_signup.html"), undefined);
  });
});

Deno.test("verification() stays quiet on pages that only say verify, on reCAPTCHA v3's badge, a loading title, a solved widget and articles about checks", async () => {
  await withPages(async (look) => {
    for (
      const path of [
        "/walls/verify_email.html", // "Verify your email", a code field and a "Verify" button
        "/walls/verify_button.html", // "Verify" and "Verify identity" buttons
        "/walls/recaptcha_v3.html", // the invisible badge, a bound button, a parked challenge
        "/walls/loading.html", // an app's "Just a moment..." while it loads
        "/walls/solved_recaptcha.html", // the widget wrote its token
        "/walls/article.html", // a long article that quotes the checks
        "/walls/coding_challenge.html", // #challenge-form, and the article below it
        "/walls/site.html",
      ]
    ) {
      assert.equal(await look(path), undefined, path);
    }
  });
});

Deno.test("verification() lets a widget go once a person ticked it, and an interstitial once it passed", async () => {
  await using site = startFixtureServer({ routes: [wallFrames] });
  await using browser = await BrowserSession.start({ headless: true, closeBanners: false });
  const page = pageOf(browser);
  await browser.navigate(site.url("/walls/recaptcha.html"));
  assert.equal((await browser.verification())?.kind, "recaptcha");
  const frame = page.frames().find((f) => f.url().includes("/recaptcha/api2/anchor"))!;
  await frame.click("#box");
  await page.waitForFunction(() =>
    (document.querySelector('[name="g-recaptcha-response"]') as HTMLTextAreaElement).value !== ""
  );
  assert.equal(await browser.verification(), undefined);

  await browser.navigate(site.url("/walls/interstitial.html"));
  assert.equal((await browser.verification())?.kind, "cloudflare_challenge");
  await Promise.all([page.waitForNavigation(), page.click("#human")]);
  assert.equal(await browser.verification(), undefined);
  assert.match(page.url(), /\/walls\/site\.html$/);
});

Deno.test("frameRowFor() knows the providers' frames by host and path, and their invisible badges as harmless", () => {
  const row = (src: string) => frameRowFor(src);
  assert.equal(
    row("https://challenges.cloudflare.com/cdn-cgi/challenge-platform/h/b/turnstile/if/ov2/av0/x")
      ?.kind,
    "turnstile",
  );
  assert.equal(row("https://challenges.cloudflare.com/somewhere")?.kind, "cloudflare_challenge");
  assert.equal(
    row("https://shop.example/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1")?.kind,
    "cloudflare_challenge",
  );
  assert.equal(
    row("https://www.google.com/recaptcha/api2/anchor?k=x&size=normal")?.kind,
    "recaptcha",
  );
  assert.equal(row("https://www.recaptcha.net/recaptcha/enterprise/bframe?k=x")?.kind, "recaptcha");
  const badge = "https://www.google.com/recaptcha/api2/anchor?ar=1&k=x&size=invisible";
  assert.ok(row(badge)?.harmless?.test(badge), "the invisible badge is harmless");
  const hc = "https://newassets.hcaptcha.com/captcha/v1/abc/static/hcaptcha.html#frame=checkbox";
  assert.equal(row(hc)?.kind, "hcaptcha");
  assert.equal(row("https://client-api.arkoselabs.com/fc/gt2/public_key/X")?.kind, "arkose");
  assert.equal(row("https://geo.captcha-delivery.com/captcha/?initialCid=x")?.kind, "datadome");
  // Google's other pages, lookalike hosts and other schemes are not checks.
  for (
    const src of [
      "https://www.google.com/maps/embed?pb=x",
      "https://www.youtube.com/embed/x",
      "https://example.com/verify-email",
      "https://notgoogle.com/recaptcha/api2/x",
      "https://hcaptcha.com.evil.example/x",
      "about:blank",
      "data:text/html,<p>recaptcha</p>",
    ]
  ) {
    assert.equal(row(src), undefined, src);
  }
});

Deno.test("scriptRowFor() knows the check vendors' scripts, and no site's own", () => {
  const kind = (src: string) => scriptRowFor(src)?.kind;
  assert.equal(kind("https://www.google.com/recaptcha/api.js?render=explicit"), "recaptcha");
  assert.equal(kind("https://js.hcaptcha.com/1/api.js"), "hcaptcha");
  assert.equal(kind("https://ct.captcha-delivery.com/c.js"), "datadome");
  assert.equal(
    kind("https://x.test/cdn-cgi/challenge-platform/h/g/orchestrate/v1"),
    "cloudflare_challenge",
  );
  assert.equal(kind("https://client.px-cloud.net/PXabc/main.min.js"), "press_and_hold");
  for (
    const src of ["https://shop.test/js/verify.js", "https://shop.test/captcha.png", "data:,x"]
  ) {
    assert.equal(scriptRowFor(src), undefined, src);
  }
});

Deno.test("the verification table names containers and markers by one id or one class each, as the engine looks them up", () => {
  const selectors = [...CONTAINERS.flatMap((r) => r.selectors), ...INTERSTITIAL_MARKERS.selectors];
  for (const selector of selectors) assert.match(selector, /^[#.][\w-]+$/, selector);
  for (const row of [...CONTAINERS, ...FRAMES]) assert.ok(row.reason.length > 20, row.name);
});
