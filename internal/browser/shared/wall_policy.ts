/**
 * What a human-verification check looks like, as tables: one row per sign, each with its reason.
 * The in-page engine (`page/verification/walls.ts`) reads them; nothing here touches the DOM. A check is known
 * by its structure (the frames the providers serve, their widgets' containers, the interstitial
 * pages' titles, markers and texts in many languages), never by a word alone: a page that asks
 * to "verify your email" or shows a "Verify" button is not one.
 *
 * @module
 */
import type { VerificationKind } from "../../entity/mod.ts";

/** A provider's frame, known by its address: the widget itself, or its challenge pop-up. */
export interface FrameRow {
  kind: VerificationKind;
  name: string;
  /** The frame's host (its address's host name), when the provider serves it from its own. */
  host?: RegExp;
  /** Its path (with the fragment, where hCaptcha names the frame), wherever it is served from. */
  path?: RegExp;
  /** The address marks a frame that blocks nothing (an invisible widget's badge). */
  harmless?: RegExp;
  passes?: boolean;
  reason: string;
}

/** Frames, most specific first (the first row that matches names the check). */
export const FRAMES: readonly FrameRow[] = [
  {
    kind: "turnstile",
    name: "Cloudflare Turnstile",
    path: /^\/cdn-cgi\/challenge-platform\/.*\/turnstile\//,
    passes: true,
    reason:
      "Cloudflare serves the Turnstile widget's frame from /cdn-cgi/challenge-platform/…/turnstile/",
  },
  {
    kind: "cloudflare_challenge",
    name: "Cloudflare challenge",
    host: /^challenges\.cloudflare\.com$/,
    passes: true,
    reason: "challenges.cloudflare.com serves only Cloudflare's challenges and Turnstile",
  },
  {
    kind: "cloudflare_challenge",
    name: "Cloudflare challenge",
    path: /^\/cdn-cgi\/challenge-platform\//,
    passes: true,
    reason:
      "a frame from Cloudflare's challenge platform (/cdn-cgi/challenge-platform/) is a check",
  },
  {
    kind: "recaptcha",
    name: "reCAPTCHA",
    host: /^(www\.)?(google\.com|recaptcha\.net|gstatic\.com)$/,
    path: /^\/recaptcha\//,
    harmless: /[?&#]size=invisible\b/,
    reason:
      "Google serves reCAPTCHA's checkbox (anchor) and picture challenge (bframe) under /recaptcha/; an invisible one's badge (size=invisible) blocks nothing",
  },
  {
    kind: "recaptcha",
    name: "reCAPTCHA",
    path: /^\/recaptcha\/(api2|enterprise)\/(anchor|bframe)\b/,
    harmless: /[?&#]size=invisible\b/,
    reason:
      "reCAPTCHA's checkbox and picture challenge, served through a proxy or mirror at their usual paths",
  },
  {
    kind: "hcaptcha",
    name: "hCaptcha",
    host: /(^|\.)hcaptcha\.com$/,
    harmless: /[?&#]size=invisible\b/,
    reason:
      "hcaptcha.com serves hCaptcha's checkbox and challenge frames; an invisible one (size=invisible) blocks nothing until it opens its challenge",
  },
  {
    kind: "hcaptcha",
    name: "hCaptcha",
    path: /\/hcaptcha\.html(#|$)/,
    harmless: /[?&#]size=invisible\b/,
    reason: "hCaptcha's frames are hcaptcha.html, wherever a site serves them from",
  },
  {
    kind: "arkose",
    name: "Arkose Labs (FunCaptcha)",
    host: /(^|\.)(arkoselabs\.com|funcaptcha\.com|arkoselabs\.cn)$/,
    reason: "Arkose Labs serves its puzzles (FunCaptcha) from these hosts",
  },
  {
    kind: "datadome",
    name: "DataDome",
    host: /^geo\.captcha-delivery\.com$|^ct\.captcha-delivery\.com$/,
    reason: "DataDome shows its challenge in a frame from captcha-delivery.com",
  },
  {
    kind: "press_and_hold",
    name: "press and hold (HUMAN)",
    host: /(^|\.)px-cdn\.net$|(^|\.)px-cloud\.net$/,
    path: /captcha/i,
    reason: "HUMAN (PerimeterX) serves its press-and-hold button from px-cdn.net",
  },
  {
    kind: "geetest",
    name: "GeeTest",
    host: /(^|\.)geetest\.com$/,
    reason: "GeeTest serves its slider and picture puzzles from geetest.com",
  },
];

/**
 * The first row of {@link FRAMES} a frame's address matches (by host, path or both), harmless or
 * not (see {@link FrameRow.harmless}); undefined for any other address. The one matcher: the page
 * reads a frame's `src` with it, the Deno side a child frame's address.
 *
 * @example
 * ```ts
 * frameRowFor("https://www.google.com/recaptcha/api2/anchor?k=x")?.name; // "reCAPTCHA"
 * frameRowFor("https://example.com/verify-email"); // undefined
 * ```
 */
export function frameRowFor(src: string): FrameRow | undefined {
  return rowFor(FRAMES, src);
}

/** The first of `rows` whose host and path (with the fragment) match `src`, a web address. */
function rowFor<R extends Pick<FrameRow, "host" | "path">>(
  rows: readonly R[],
  src: string,
): R | undefined {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  const path = url.pathname + url.hash;
  return rows.find((r) =>
    (r.host || r.path) && (!r.host || r.host.test(url.hostname)) && (!r.path || r.path.test(path))
  );
}

/**
 * A check vendor's script, known by its address: beside a page's text that asks to prove you
 * are human, it makes that page the check (the vendor's widget may draw in a closed shadow root,
 * or not yet). Alone it is none: sites load reCAPTCHA's or Turnstile's script on every page.
 */
export const SCRIPTS: readonly Omit<FrameRow, "harmless" | "passes">[] = [
  {
    kind: "cloudflare_challenge",
    name: "Cloudflare challenge",
    host: /^challenges\.cloudflare\.com$/,
    reason: "challenges.cloudflare.com serves Cloudflare's challenge and Turnstile scripts",
  },
  {
    kind: "cloudflare_challenge",
    name: "Cloudflare challenge",
    path: /^\/cdn-cgi\/challenge-platform\//,
    reason: "Cloudflare's challenge page runs its scripts from /cdn-cgi/challenge-platform/",
  },
  {
    kind: "recaptcha",
    name: "reCAPTCHA",
    path: /^\/recaptcha\/(api|enterprise)\.js$/,
    reason: "reCAPTCHA's loader, at its usual path on any host",
  },
  {
    kind: "hcaptcha",
    name: "hCaptcha",
    host: /(^|\.)hcaptcha\.com$/,
    reason: "hcaptcha.com serves hCaptcha's loader",
  },
  {
    kind: "datadome",
    name: "DataDome",
    host: /(^|\.)captcha-delivery\.com$|(^|\.)datadome\.co$/,
    reason: "DataDome's check and its device script come from these hosts",
  },
  {
    kind: "press_and_hold",
    name: "press and hold (HUMAN)",
    host: /(^|\.)px-cdn\.net$|(^|\.)px-cloud\.net$|(^|\.)perimeterx\.net$/,
    reason: "HUMAN (PerimeterX) serves its check's scripts from these hosts",
  },
  {
    kind: "arkose",
    name: "Arkose Labs (FunCaptcha)",
    host: /(^|\.)(arkoselabs\.com|funcaptcha\.com|arkoselabs\.cn)$/,
    reason: "Arkose Labs serves its puzzles' scripts from these hosts",
  },
  {
    kind: "geetest",
    name: "GeeTest",
    host: /(^|\.)geetest\.com$/,
    reason: "GeeTest serves its puzzles' scripts from geetest.com",
  },
];

/** The first row of {@link SCRIPTS} a script's address matches; undefined for any other. */
export function scriptRowFor(src: string): (typeof SCRIPTS)[number] | undefined {
  return rowFor(SCRIPTS, src);
}

/** A widget's container on the page itself (its frame may sit in a closed shadow root). */
export interface ContainerRow {
  kind: VerificationKind;
  name: string;
  /**
   * The container's ids (`#px-captcha`) or classes (`.cf-turnstile`): looked up by the page's own
   * indexes, so checking costs next to nothing on a page of 10,000 elements.
   */
  selectors: readonly string[];
  passes?: boolean;
  reason: string;
}

/** Containers, most specific first. */
export const CONTAINERS: readonly ContainerRow[] = [
  {
    kind: "turnstile",
    name: "Cloudflare Turnstile",
    selectors: [".cf-turnstile"],
    passes: true,
    reason: "the container Cloudflare's documentation gives the Turnstile widget",
  },
  {
    kind: "recaptcha",
    name: "reCAPTCHA",
    selectors: [".g-recaptcha"],
    reason: "the container Google's documentation gives the reCAPTCHA checkbox",
  },
  {
    kind: "hcaptcha",
    name: "hCaptcha",
    selectors: [".h-captcha"],
    reason: "the container hCaptcha's documentation gives its checkbox",
  },
  {
    kind: "press_and_hold",
    name: "press and hold (HUMAN)",
    selectors: ["#px-captcha"],
    reason: "HUMAN (PerimeterX) draws its press-and-hold button in #px-captcha",
  },
  {
    kind: "arkose",
    name: "Arkose Labs (FunCaptcha)",
    selectors: ["#arkose", "#FunCaptcha", "#funcaptcha", "#arkose-challenge"],
    reason: "Arkose Labs' (FunCaptcha's) usual containers",
  },
  {
    kind: "geetest",
    name: "GeeTest",
    selectors: [".geetest_holder", ".geetest_panel_box", ".geetest_box"],
    reason: "GeeTest's slider and panel",
  },
];

/**
 * A container that is one of these blocks nothing, whatever its class: a submit button or link
 * that invisible reCAPTCHA or hCaptcha is bound to (`<button class="g-recaptcha">`), or a widget
 * set to be invisible.
 */
export const HARMLESS_CONTAINER = {
  selector: 'button, input, a, [data-size="invisible"], .grecaptcha-badge',
  reason:
    "invisible reCAPTCHA and hCaptcha bind to a submit button or show only a badge: nothing blocks until they open a challenge, whose frame counts then",
};

/**
 * Where a widget puts its answer once a person solved it (or it solved itself): a widget with a
 * filled one is passed and blocks nothing.
 */
export const ANSWER_FIELDS = {
  selector:
    '[name="cf-turnstile-response"], [name="g-recaptcha-response"], [name="h-captcha-response"]',
  reason: "Turnstile, reCAPTCHA and hCaptcha write their token into these fields when passed",
};

/**
 * A login page's CAPTCHA: a picture of characters and the field to type them into. Both must
 * show, in one form (or the page when there is none); a filled field is passed.
 */
export const CAPTCHA_IMAGE = {
  /** Words in a field's name, id, placeholder, label or aria-label. */
  field: /captcha|капч|验证码图|图形验证码|图片验证码|画像認証|認証画像/i,
  /** Words in a picture's src, alt, id, class or title (looked for in that order's attributes). */
  picture: ["captcha", "капч", "验证码"],
  reason:
    "a field named for a CAPTCHA beside a picture named for one: the characters in the picture are for a person to read",
};

/**
 * How far into open shadow roots frames and containers are looked for: a web component may wrap
 * a widget's container (`<captcha-box>` around `.cf-turnstile`), and the page's indexes do not
 * reach into it. The document's elements and those of its open shadow roots are gone through in
 * order, up to `elements` (a page's own are usually a few thousand), so a huge page costs a
 * bounded look; a closed shadow root is out of reach, as it is for the page's own scripts.
 */
export const SHADOW_SEARCH = {
  elements: 20000,
  reason:
    "a widget's container inside a web component's open shadow root blocks the page as one in the document does",
};

/** The least a frame or a widget must measure, in CSS pixels, to block anything. */
export const MIN_SIZE = 20;

/**
 * Titles of Cloudflare's interstitial page in the languages it speaks ("Just a moment…"). A
 * title alone is not enough (a page may say so while it loads): a marker or a text must agree.
 */
export const INTERSTITIAL_TITLE =
  /^\s*(just a moment|attention required!?\s*\|\s*cloudflare|please\s+wait\.*\s*\|\s*cloudflare|einen moment(,? bitte)?|nur einen moment|un instant|un momento|solo un momento|só um momento|um momento|один момент|минуточку|chwileczkę|chwileczke|even geduld|een ogenblik|bir dakika( lütfen)?|しばらくお待ちください|少々お待ちください|请稍候|請稍候|稍等片刻|잠시만 기다리십시오|잠시만 기다려 주세요)\s*[.…!]*\s*$/i;

/** Elements only Cloudflare's interstitial page has (ids and classes, as in {@link ContainerRow}). */
export const INTERSTITIAL_MARKERS = {
  selectors: [
    "#challenge-form",
    "#challenge-stage",
    "#challenge-running",
    "#challenge-body-text",
    "#challenge-error-text",
    "#challenge-success-text",
    "#cf-challenge-running",
    "#cf-please-wait",
    "#cf-spinner-please-wait",
    ".cf-browser-verification",
  ],
  reason: "the challenge page Cloudflare serves instead of a site has these ids",
};

/**
 * What a page that checks for a human says, in many languages: "verify you are human", "are you
 * a robot", "checking your browser", "press and hold". Read only on a short page or beside
 * another sign; "verify your email" and a "Verify" button do not match.
 */
export const HUMAN_CHECK_TEXT: readonly { pattern: RegExp; kind: VerificationKind }[] = [
  {
    kind: "press_and_hold",
    pattern:
      /\bpress (and|&) hold\b|gedrückt halten|halten sie (die taste )?gedrückt|appuyez et maintenez|maintenez (le bouton )?appuyé|mant[eé]n pulsado|mantenga (presionado|pulsado)|pressione e segure|mantenha pressionado|tieni premuto|нажмите и удерживайте|naciśnij i przytrzymaj|ingedrukt houden|basılı tutun|按住|長押し|길게 누르/i,
  },
  {
    kind: "human_check_page",
    pattern:
      /\b(verify|verifying|confirm|prove|show|check(ing)?)( that)? (you('re| are)|you are) (a )?(human|not a (robot|bot))\b|\bare you (a )?(human|robot)\b|\bchecking (if the site connection is secure|your browser)\b|\bhuman verification\b|\bi('m| am) not a robot\b/i,
  },
  {
    kind: "human_check_page",
    pattern:
      /(bestätigen|überprüfen|prüfen|verifizieren)[^.!?]{0,30}\bsie ein mensch sind|sind sie ein mensch|ich bin kein roboter|überprüfung,? ob sie ein mensch sind/i,
  },
  {
    kind: "human_check_page",
    pattern:
      /(vérifiez|vérifions|confirmez|prouvez|vérification)[^.!?]{0,30}\bvous (êtes|n'êtes pas) (un )?(humain|robot)|êtes-vous (un )?(humain|robot)|je ne suis pas un robot/i,
  },
  {
    kind: "human_check_page",
    pattern:
      /(verifique|verifica|verificando|confirme|confirma|demuestre|demuestra|comprove)[^.!?]{0,30}\b(es|eres|é|você é|sei)( un| um)? (ser )?(humano|umano|robot|robô)|¿?eres (un )?(humano|robot)\??|no soy un robot|não sou um robô|non sono un robot|(verifica|conferma|dimostra)[^.!?]{0,20}di essere (un )?(essere )?umano/i,
  },
  {
    kind: "human_check_page",
    pattern:
      /(подтвердите|докажите|убедитесь|проверяем|проверка),?[^.!?]{0,30}что вы (не робот|человек)|вы (не робот|человек)\?|я не робот|проверка браузера/i,
  },
  {
    kind: "human_check_page",
    pattern:
      /(potwierdź|zweryfikuj|udowodnij|sprawdzamy)[^.!?]{0,30}(że )?(jesteś człowiekiem|nie jesteś robotem)|(bevestig|verifieer|bewijs|controleren)[^.!?]{0,30}(dat )?(je|u) (een )?mens bent|ik ben geen robot|insan olduğunuzu (doğrulayın|kanıtlayın)|robot olmadığınızı|ben robot değilim/i,
  },
  {
    kind: "human_check_page",
    pattern:
      /确认您是真人|验证您是真人|请验证您是人类|验证你是人类|人机验证|我不是机器人|確認您是真人|我不是機器人|人間であることを確認|ロボットではありません|私はロボットではありません|사람인지 확인|로봇이 아닙니다/i,
  },
];

/**
 * A page of fewer `elements` and at most `words` that says one of {@link HUMAN_CHECK_TEXT} (the
 * interstitials of Cloudflare, HUMAN and DataDome say a line or two) is a check beside a sign of
 * one: a vendor's script ({@link SCRIPTS}), or nothing else to act on ({@link PAGE_CONTROLS});
 * with Cloudflare's title or a marker beside the text, up to `beside` words. A longer page (an
 * article about checks, a coding challenge's page) is none, and so is a heading's words alone.
 */
export const SHORT_PAGE = { words: 120, beside: 300, elements: 400 };

/**
 * What a person could act on: a short page that says "Human Verification" and offers a tick box,
 * a field or a button is a page to work (a sign-up form headed so), not a check that holds the
 * content back; one with none of these (links aside) is waiting on a check it runs itself.
 */
export const PAGE_CONTROLS = {
  selector:
    'input:not([type="hidden"]), select, textarea, button, [role="button"], [role="checkbox"], [contenteditable=""], [contenteditable="true"]',
  reason:
    "a page that says to prove you are human and offers controls is worked like any page; the words alone are no wall",
};
