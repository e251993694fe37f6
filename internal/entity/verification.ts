/**
 * A human-verification check that blocks a page, as data: the browser finds it, the agent hands
 * it to a person, the MCP server reports it (`blocked_by_verification`), the CLI and the live
 * view word it.
 *
 * @module
 */

/**
 * Which check: Cloudflare's interstitial page ("Just a moment…") or its Turnstile widget,
 * reCAPTCHA, hCaptcha, a "press and hold" button (HUMAN, formerly PerimeterX), Arkose Labs
 * (FunCaptcha), DataDome, GeeTest, a picture of characters to type into a field (a login page's
 * CAPTCHA), or a page that only asks to verify that you are human.
 */
export type VerificationKind =
  | "cloudflare_challenge"
  | "turnstile"
  | "recaptcha"
  | "hcaptcha"
  | "press_and_hold"
  | "arkose"
  | "datadome"
  | "geetest"
  | "captcha_image"
  | "human_check_page";

/**
 * A human-verification check that blocks the current page. The agent never solves or bypasses
 * one: a person does.
 */
export interface VerificationWall {
  kind: VerificationKind;
  /** What it is, for people: `Cloudflare Turnstile`, `reCAPTCHA`, `"Verify you are human"`. */
  name: string;
  /** The page it blocks. */
  url: string;
  /**
   * Where it was seen: `a frame from challenges.cloudflare.com/cdn-cgi/…`, `div.h-captcha`,
   * `the page (title "Just a moment...", #challenge-stage)`, with `in a frame from ORIGIN` when
   * it sits in a child frame.
   */
  where: string;
  /** Why that counts: the reason of the rule that matched. */
  reason: string;
  /**
   * True for checks that often pass by themselves in a moment (Cloudflare's interstitial and
   * Turnstile): the agent gives them a few seconds before it hands them over.
   */
  passes?: boolean;
  /**
   * Where it shows in the tab's viewport (what a picture of the tab shows), for the live view to
   * zoom its picture around; none for a page that is itself the check, or one in a child frame.
   */
  box?: ViewBox;
}

/** A box in a tab's viewport, in CSS pixels, with the viewport's size. */
export interface ViewBox {
  x: number;
  y: number;
  width: number;
  height: number;
  view: { width: number; height: number };
}

/**
 * A check as every JSON output writes it (`--json` lines, MCP results, the live view):
 * `kind`, `name`, `url` (the page it blocks) and `where`.
 */
export function verificationJson(
  wall: VerificationWall,
): Pick<VerificationWall, "kind" | "name" | "url" | "where"> {
  return { kind: wall.kind, name: wall.name, url: wall.url, where: wall.where };
}
