/**
 * A fixture-server route that serves stand-ins for the verification providers' frames at the
 * paths the real ones use (Turnstile's under `/cdn-cgi/challenge-platform/`, reCAPTCHA's
 * `/recaptcha/api2/anchor` and `bframe`, hCaptcha's `hcaptcha.html`), so fixture pages on
 * 127.0.0.1 embed them as sites embed the real ones, without the internet. Each is a checkbox
 * that, ticked, writes a token into the parent page's answer field (named by `answer=`).
 *
 * @example
 * ```ts
 * await using site = startFixtureServer({ routes: [wallFrames] });
 * ```
 */
export async function wallFrames(_req: Request, url: URL): Promise<Response | undefined> {
  const path = url.pathname;
  const known =
    /^\/cdn-cgi\/challenge-platform\/|^\/recaptcha\/api2\/(anchor|bframe)$|\/hcaptcha\.html$/
      .test(path);
  if (!known) return undefined;
  const body = await Deno.readFile(
    new URL("../fixtures/walls/frames/checkbox.html", import.meta.url),
  );
  return new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
}
