/// <reference lib="dom" />
/**
 * Cookie and consent banner closing: the known consent frameworks by their buttons, else a
 * floating box that talks about cookies by its reject, accept or close button.
 *
 * @module
 */
import { deepElements, openRoots, visible } from "../core/dom.ts";
import { clean } from "../../shared/text.ts";

/** What {@link closeBanner} clicked. */
export interface BannerClosing {
  /** Which choice it made: reject non-essential is preferred over accept, accept over close. */
  choice: "reject" | "accept" | "close";
  /** The button's text or label. */
  button: string;
  /** The consent framework, when one was recognised. */
  framework?: string;
}

// Known consent frameworks: [name, reject selectors, accept selectors].
const FRAMEWORKS: [string, string[], string[]][] = [
  ["OneTrust", ["#onetrust-reject-all-handler", ".ot-pc-refuse-all-handler"], [
    "#onetrust-accept-btn-handler",
  ]],
  ["Cookiebot", [
    "#CybotCookiebotDialogBodyButtonDecline",
    "#CybotCookiebotDialogBodyLevelButtonLevelOptinDeclineAll",
  ], [
    "#CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll",
    "#CybotCookiebotDialogBodyButtonAccept",
  ]],
  ["Didomi", ["#didomi-notice-disagree-button", ".didomi-continue-without-agreeing"], [
    "#didomi-notice-agree-button",
  ]],
  ["Quantcast", ['.qc-cmp2-summary-buttons button[mode="secondary"]'], [
    '.qc-cmp2-summary-buttons button[mode="primary"]',
  ]],
  ["Usercentrics", ['[data-testid="uc-deny-all-button"]'], [
    '[data-testid="uc-accept-all-button"]',
  ]],
  ["TrustArc", ["#truste-consent-required"], ["#truste-consent-button"]],
  ["CookieYes", [".cky-btn-reject"], [".cky-btn-accept"]],
  ["Complianz", [".cmplz-deny"], [".cmplz-accept"]],
  ["Osano", [".osano-cm-denyAll"], [".osano-cm-accept-all"]],
  ["Klaro", [".cm-btn-decline"], [".cm-btn-accept-all"]],
  ["iubenda", [".iubenda-cs-reject-btn"], [".iubenda-cs-accept-btn"]],
  ["Axeptio", ["#axeptio_btn_dismiss"], ["#axeptio_btn_acceptAll"]],
  ["CookieFirst", ['[data-cookiefirst-action="reject"]'], ['[data-cookiefirst-action="accept"]']],
  ["Termly", ['[data-tid="banner-decline"]'], ['[data-tid="banner-accept"]']],
  ["Borlabs", ["#BorlabsCookieBox ._brlbs-refuse-btn"], [
    "#BorlabsCookieBox ._brlbs-btn-accept-all",
  ]],
  ["Sourcepoint", ['button[title="Reject All"]', 'button[title="Reject all"]'], [
    'button[title="Accept All"]',
    'button[title="Accept all"]',
  ]],
];
const REJECT =
  /^(reject|reject all|reject all cookies|reject cookies|reject non-essential( cookies)?|decline|decline all|deny|deny all|refuse|refuse all|disagree|only necessary|necessary only|only essential|essential only|(use|allow) (only )?(necessary|essential)( cookies)?( only)?|continue without (accepting|agreeing)|отклонить|отклонить все|отказаться|запретить|только необходимые|ablehnen|alle ablehnen|nur (notwendige|essenzielle|erforderliche|technisch notwendige)( cookies)?|refuser|tout refuser|continuer sans accepter|rechazar|rechazar todo|rechazar todas|solo (necesarias|esenciales)|denegar|rejeitar|rejeitar tudo|recusar|recusar tudo|apenas (necessários|essenciais)|rifiuta|rifiuta tutto|solo (necessari|essenziali)|continua senza accettare|拒绝|全部拒绝|仅必要|仅限必要|weigeren|alles weigeren|alleen noodzakelijk|odrzuć|odrzuć wszystkie|拒否|すべて拒否|reddet)[.!]?$/i;
const ACCEPT =
  /^(accept|accept all|accept all cookies|accept cookies|allow|allow all|allow all cookies|allow cookies|agree|i agree|agree and (close|continue)|got it|ok|okay|i understand|understood|yes,? i agree|принять|принять все|согласен|согласна|соглашаюсь|понятно|хорошо|ок|akzeptieren|alle akzeptieren|zustimmen|alle zulassen|einverstanden|verstanden|accepter|tout accepter|j'accepte|d'accord|accepter et fermer|aceptar|aceptar todo|aceptar todas|acepto|de acuerdo|entendido|aceitar|aceitar tudo|aceito|concordo|accetta|accetta tutto|accetto|ho capito|接受|同意|全部接受|我同意|接受全部|accepteren|alles accepteren|akkoord|akceptuję|zaakceptuj wszystkie|zgadzam się|同意する|すべて同意|kabul et)[.!]?$/i;
const CLOSE =
  /^(×|✕|✖|x|close|dismiss|no thanks|not now|закрыть|schließen|fermer|cerrar|fechar|chiudi|关闭|sluiten|zamknij|閉じる)$/i;
// Names (id, class, aria-label) may be broad; text must talk about cookies or consent.
const NAME_WORDS = /cookie|consent|gdpr|\bcmp\b|privacy|datenschutz|rgpd/i;
const TEXT_WORDS = /cookie|куки|consent|gdpr|rgpd|クッキー|使用cookie|隐私政策/i;

/**
 * Finds a visible cookie or consent banner in this document (open shadow roots included) and
 * clicks its "reject non-essential" button, else "accept", else "close". With `at`, also clears
 * whatever overlay covers that point (a modal, a newsletter pop-up) by its close button.
 * Returns what it clicked, or null when there was nothing to close.
 */
export function closeBanner(at: { x: number; y: number } | null): BannerClosing | null {
  const all = deepElements(LOOKED_AT);
  const roots = openRoots(LOOKED_AT);
  const known = frameworkButtons(all, roots);
  for (const [name, reject, accept] of FRAMEWORKS) {
    for (const [choice, selectors] of [["reject", reject], ["accept", accept]] as const) {
      for (const sel of selectors) {
        const el = known.find((e) => e.matches(sel) && visible(e));
        if (el) return press(el, choice, name);
      }
    }
  }
  // Innermost boxes first: their buttons are the banner's own.
  const boxes = talksOfConsent(roots) ? consentBoxes(all) : [];
  boxes.sort((a, b) => (a.contains(b) ? 1 : b.contains(a) ? -1 : 0));
  for (const box of boxes) {
    const done = choose(all, box, true);
    if (done) return done;
  }
  if (at) {
    let overlay: Element | null = null;
    for (let p = document.elementFromPoint(at.x, at.y); p; p = p.parentElement) {
      if (isFloating(p)) overlay = p;
    }
    if (overlay) {
      return choose(all, overlay, TEXT_WORDS.test((overlay as HTMLElement).innerText ?? ""));
    }
  }
  return null;
}

/** The elements a pass looks at: the page's first ones, its open shadow trees' included. */
const LOOKED_AT = 20_000;

/** Any framework's button selector: one native search instead of each selector per element. */
const ANY_FRAMEWORK = FRAMEWORKS.flatMap(([, reject, accept]) => [...reject, ...accept]).join(", ");

/**
 * The elements of `all` that some framework's selector matches, in `all`'s order: found by the
 * browser in each open tree (a page of 14,000 elements was matched selector by selector, some
 * 400,000 calls and 100 ms a pass, on each of a domain's first looks).
 */
function frameworkButtons(all: Element[], roots: (Document | ShadowRoot)[]): Element[] {
  const hits = new Set<Element>();
  for (const root of roots) {
    for (const el of root.querySelectorAll(ANY_FRAMEWORK)) hits.add(el);
  }
  return hits.size === 0 ? [] : all.filter((e) => hits.has(e));
}

/**
 * Whether a consent box may be found: the page's text talks about cookies, or it has open shadow
 * trees (whose text the document's may leave out). A box's text is part of the page's, so a page
 * whose text never says "cookie" holds none: its elements' styles are not read one by one
 * (14,000 on a big page, some 30 ms a pass).
 */
function talksOfConsent(roots: (Document | ShadowRoot)[]): boolean {
  if (roots.length > 1) return true;
  const root = document.documentElement;
  if (!root) return false;
  return TEXT_WORDS.test((root as HTMLElement).innerText ?? root.textContent ?? "");
}

/** A button's text or label. */
function labelOf(e: Element): string {
  return clean(
    (e as HTMLElement).innerText || e.getAttribute("aria-label") || e.getAttribute("title") ||
      (e as HTMLInputElement).value,
  );
}

/** Clicks a banner's button by script and says what it clicked. */
function press(el: Element, choice: BannerClosing["choice"], framework?: string): BannerClosing {
  const button = labelOf(el).slice(0, 60);
  (el as HTMLElement).click();
  const out: BannerClosing = { choice, button };
  if (framework) out.framework = framework;
  return out;
}

/** The visible buttons inside `box` (its shadow tree included). */
function buttonsIn(all: Element[], box: Element): Element[] {
  return all.filter((e) =>
    (box.contains(e) || (box.shadowRoot !== null && box.shadowRoot.contains(e))) &&
    (e.localName === "button" || e.localName === "a" || e.getAttribute("role") === "button" ||
      (e instanceof HTMLInputElement && /^(button|submit)$/.test(e.type))) &&
    visible(e)
  );
}

/** Clicks a box's reject, else accept (only in a consent box), else close button. */
function choose(all: Element[], box: Element, consent: boolean): BannerClosing | null {
  const buttons = buttonsIn(all, box);
  if (consent) {
    const reject = buttons.find((b) => REJECT.test(labelOf(b)));
    if (reject) return press(reject, "reject");
    const accept = buttons.find((b) => ACCEPT.test(labelOf(b)));
    if (accept) return press(accept, "accept");
  }
  const close = buttons.find((b) =>
    CLOSE.test(labelOf(b)) || /close|dismiss/i.test(b.getAttribute("aria-label") ?? "")
  );
  return close ? press(close, "close") : null;
}

/** Fixed, sticky or dialog-like: drawn over the page. */
function isFloating(el: Element): boolean {
  const s = getComputedStyle(el);
  return s.position === "fixed" || s.position === "sticky" || el.localName === "dialog" ||
    el.getAttribute("role") === "dialog" || el.getAttribute("role") === "alertdialog" ||
    el.getAttribute("aria-modal") === "true";
}

/** Consent banners: visible, named for consent or floating boxes whose text talks about cookies. */
function consentBoxes(all: Element[]): Element[] {
  const named = (el: Element) =>
    NAME_WORDS.test(
      `${el.id} ${typeof el.className === "string" ? el.className : ""} ${
        el.getAttribute("aria-label") ?? ""
      }`,
    );
  const boxes: Element[] = [];
  for (const el of all) {
    if (!(named(el) || isFloating(el)) || !visible(el)) continue;
    const text = clean((el as HTMLElement).innerText ?? "");
    if (text.length > 3000 || !TEXT_WORDS.test(text)) continue;
    boxes.push(el);
  }
  // A frame that is itself a consent dialog (a cross-origin CMP frame) has no floating box.
  if (boxes.length === 0 && self !== top && document.body) {
    const text = clean(document.body.innerText);
    if (text.length < 3000 && TEXT_WORDS.test(text)) boxes.push(document.body);
  }
  return boxes;
}
