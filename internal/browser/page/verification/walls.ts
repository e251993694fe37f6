/// <reference lib="dom" />
/**
 * Finds a human-verification check that blocks this document, by the tables of `../policy.ts`:
 * a provider's frame or widget that shows and is not passed yet, a login page's CAPTCHA picture
 * and field, or a page that is itself the check (Cloudflare's "Just a moment…"). It only looks.
 *
 * @module
 */
import {
  ANSWER_FIELDS,
  CAPTCHA_IMAGE,
  CONTAINERS,
  type FrameRow,
  frameRowFor,
  HARMLESS_CONTAINER,
  HUMAN_CHECK_TEXT,
  INTERSTITIAL_MARKERS,
  INTERSTITIAL_TITLE,
  MIN_SIZE,
  PAGE_CONTROLS,
  scriptRowFor,
  SHADOW_SEARCH,
  SHORT_PAGE,
} from "../../shared/wall_policy.ts";
import { openRoots, visible } from "../core/dom.ts";
import { clean, cut } from "../../shared/text.ts";

/** A check this document shows (the Deno side adds the page's address). */
export interface WallSeen {
  kind: FrameRow["kind"];
  name: string;
  where: string;
  reason: string;
  passes: boolean;
  /** Where it shows in the viewport (the entity's `ViewBox`), for the live view's zoom. */
  box?: { x: number; y: number; width: number; height: number; view: ViewSize };
}

type ViewSize = { width: number; height: number };

/**
 * The human-verification check that blocks this document, or null: widgets and frames first
 * (they say what to solve; in the document, and in its open shadow roots, where a web component
 * may wrap them), then the page as a whole.
 */
export function verificationWall(): WallSeen | null {
  const shadowed = inOpenShadowRoots();
  return frameWall(shadowed) ?? containerWall(shadowed) ?? captchaImageWall() ?? pageWall();
}

/**
 * The frames and the tables' containers inside the document's open shadow roots (bounded by
 * {@link SHADOW_SEARCH}), in order: one query per root, as the page's indexes do not reach there.
 */
function inOpenShadowRoots(): Element[] {
  const selector = ["iframe", "frame", ...CONTAINERS.flatMap((r) => r.selectors)].join(", ");
  return openRoots(SHADOW_SEARCH.elements).slice(1).flatMap((root) =>
    Array.from(root.querySelectorAll(selector))
  );
}

/** The CSS size of the viewport, which a person's clicks on its picture are read against. */
export function viewportSize(): { width: number; height: number } {
  return { width: innerWidth, height: innerHeight };
}

function frameWall(shadowed: readonly Element[]): WallSeen | null {
  const frames = [
    ...Array.from(document.getElementsByTagName("iframe")),
    ...Array.from(document.getElementsByTagName("frame")),
    ...shadowed.filter((el) => el.localName === "iframe" || el.localName === "frame"),
  ];
  for (const el of frames) {
    const src = (el as HTMLIFrameElement).src;
    const row = src ? frameRowFor(src) : undefined;
    if (!row || row.harmless?.test(src) || !blocks(el) || passed(el)) continue;
    const url = new URL(src);
    return {
      kind: row.kind,
      name: row.name,
      where: `a frame from ${cut(url.host + url.pathname, 80)}${inShadow(el)}`,
      reason: row.reason,
      passes: row.passes === true,
      ...placed(el),
    };
  }
  return null;
}

function containerWall(shadowed: readonly Element[]): WallSeen | null {
  for (const row of CONTAINERS) {
    const named = row.selectors.join(", ");
    const found = [
      ...row.selectors.flatMap(elementsOf),
      ...shadowed.filter((e) => e.matches(named)),
    ];
    for (const el of found) {
      if (el.matches(HARMLESS_CONTAINER.selector) || el.closest(".grecaptcha-badge")) continue;
      if (!blocks(el) || passed(el)) continue;
      return {
        kind: row.kind,
        name: row.name,
        where: describe(el) + inShadow(el),
        reason: row.reason,
        passes: row.passes === true,
        ...placed(el),
      };
    }
  }
  return null;
}

/**
 * A field for the characters of a CAPTCHA picture, empty, beside such a picture (in its form, or
 * the page when it has none). The pictures are looked for first: most pages have none.
 */
function captchaImageWall(): WallSeen | null {
  const pictures = [
    ...Array.from(document.images),
    ...Array.from(document.getElementsByTagName("canvas")),
  ];
  for (const picture of pictures) {
    const names = ["src", "alt", "id", "class", "title"].map((a) => picture.getAttribute(a) ?? "")
      .join(" ").toLowerCase();
    if (!CAPTCHA_IMAGE.picture.some((word) => names.includes(word)) || !blocks(picture)) continue;
    const scope: ParentNode = picture.closest("form") ?? document;
    const field = Array.from(
      scope.querySelectorAll<HTMLInputElement>(
        'input:not([type]), input[type="text"], input[type="tel"], input[type="number"]',
      ),
    ).find((f) => !f.value && CAPTCHA_IMAGE.field.test(fieldWords(f)) && visible(f));
    if (!field) continue;
    return {
      kind: "captcha_image",
      name: "CAPTCHA picture",
      where: `${describe(field)} beside ${describe(picture)}`,
      reason: CAPTCHA_IMAGE.reason,
      passes: false,
      ...placed(picture, field),
    };
  }
  return null;
}

/**
 * The page itself is the check: Cloudflare's title and one of its markers, or a text that asks
 * to prove you are human on a short page beside a vendor's script or with nothing else to act on
 * (or on a page not much longer with the title or a marker). The text alone is none: a sign-up
 * form headed "Human Verification" with a tick box is worked like any page.
 */
function pageWall(): WallSeen | null {
  const title = clean(document.title);
  const titled = INTERSTITIAL_TITLE.test(title);
  const marker = INTERSTITIAL_MARKERS.selectors.flatMap(elementsOf)[0];
  // Counted only up to the bound: item() stops there, length counts the whole page.
  const small = document.getElementsByTagName("*").item(SHORT_PAGE.elements - 1) === null;
  if (!titled && !marker && !small) return null;
  const text = cut(clean(document.body?.innerText), 5000);
  const said = HUMAN_CHECK_TEXT.map((row) => ({ row, m: row.pattern.exec(text) })).find((s) => s.m);
  const words = text.split(" ").length;
  const short = small && words <= SHORT_PAGE.words;
  // A short page that says it is the check beside a vendor's script, or when it offers
  // nothing else to do; read only then (most pages never get here).
  const script = said && short ? vendorScript() : undefined;
  const bare = said && short && !script && !hasControls();
  // Cloudflare's title and its markers agree; or the page says it, and is short with one of
  // those signs, or little more than that beside the title or a marker (an article about checks
  // is neither).
  const fires = (titled && marker) || script || bare ||
    (said && (titled || marker) && small && words <= SHORT_PAGE.beside);
  if (!fires) return null;
  const signs = [
    titled ? `title ${JSON.stringify(cut(title, 60))}` : "",
    marker ? `#${marker.id || marker.classList[0]}` : "",
    said ? `says ${JSON.stringify(cut(said.m![0], 60))}` : "",
    script ? `a script from ${script.host}` : "",
  ].filter(Boolean);
  const where = `the page (${signs.join(", ")})`;
  if (titled || marker) {
    return {
      kind: "cloudflare_challenge",
      name: "Cloudflare challenge page",
      where,
      reason: marker
        ? INTERSTITIAL_MARKERS.reason
        : "Cloudflare's interstitial title, and a text that asks to verify you are human",
      passes: true,
    };
  }
  const phrase = said!.m![0];
  return {
    kind: said!.row.kind,
    name: said!.row.kind === "press_and_hold" ? "press and hold" : JSON.stringify(cut(phrase, 60)),
    where,
    reason: script
      ? `a short page whose text asks to prove that you are a human, beside ${script.row.reason}`
      : "a short page whose text asks to prove that you are a human, and offers nothing else to do",
    passes: false,
  };
}

/** The box `els` take together in the viewport, cut to it; nothing when none of it shows. */
function placed(...els: Element[]): Pick<WallSeen, "box"> {
  const rects = els.map((el) => el.getBoundingClientRect());
  const left = Math.max(0, Math.min(...rects.map((r) => r.left)));
  const top = Math.max(0, Math.min(...rects.map((r) => r.top)));
  const right = Math.min(innerWidth, Math.max(...rects.map((r) => r.right)));
  const bottom = Math.min(innerHeight, Math.max(...rects.map((r) => r.bottom)));
  if (right <= left || bottom <= top) return {};
  const [x, y] = [Math.floor(left), Math.floor(top)];
  return {
    box: {
      x,
      y,
      width: Math.ceil(right) - x,
      height: Math.ceil(bottom) - y,
      view: { width: innerWidth, height: innerHeight },
    },
  };
}

/** A check vendor's script the page loads ({@link scriptRowFor}): its row and host; if any. */
function vendorScript() {
  for (const el of Array.from(document.scripts)) {
    const row = el.src ? scriptRowFor(el.src) : undefined;
    if (row) return { row, host: cut(new URL(el.src).host, 60) };
  }
  return undefined;
}

/** The page offers a person something to act on ({@link PAGE_CONTROLS}) that shows. */
function hasControls(): boolean {
  return Array.from(document.querySelectorAll(PAGE_CONTROLS.selector)).some((el) => visible(el));
}

/** Shows, with a size something can be solved in, somewhere on the page (not parked far off it). */
function blocks(el: Element): boolean {
  if (!visible(el)) return false;
  const r = el.getBoundingClientRect();
  if (r.width < MIN_SIZE || r.height < MIN_SIZE) return false;
  return r.right + scrollX > 0 && r.bottom + scrollY > 0;
}

/**
 * The widget around `el` already has its answer: a person (or the widget itself) passed it. Read
 * in the nearest known container, else in the frame's own parent (never the whole page); in a
 * shadow root, in its host's own children too (a web component keeps the field its form submits
 * there).
 */
function passed(el: Element): boolean {
  const root = el.closest(CONTAINERS.flatMap((r) => r.selectors).join(", ")) ??
    (el.parentElement && el.parentElement !== document.body ? el.parentElement : null);
  const host = shadowHost(el);
  return [root, host].some((scope) =>
    scope !== null &&
    Array.from(scope.querySelectorAll(ANSWER_FIELDS.selector)).some((f) =>
      Boolean((f as HTMLInputElement).value)
    )
  );
}

/** The elements an id (`#px-captcha`) or a class (`.cf-turnstile`) names, from the page's indexes. */
function elementsOf(selector: string): Element[] {
  if (selector.startsWith("#")) {
    const el = document.getElementById(selector.slice(1));
    return el ? [el] : [];
  }
  return Array.from(document.getElementsByClassName(selector.slice(1)));
}

/** The element whose shadow root `el` is in, or null in the document. */
function shadowHost(el: Element): Element | null {
  const root = el.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

/** ` inside captcha-box's shadow root` for an element in one; nothing in the document. */
function inShadow(el: Element): string {
  const host = shadowHost(el);
  return host ? ` inside ${describe(host)}'s shadow root` : "";
}

/** What names a field: its name, id, placeholder, aria-label and labels. */
function fieldWords(field: HTMLInputElement): string {
  const labels = Array.from(field.labels ?? []).map((l) => l.textContent ?? "");
  return [
    field.name,
    field.id,
    field.placeholder,
    field.getAttribute("aria-label") ?? "",
    ...labels,
  ].join(" ");
}

/** `div.cf-turnstile`, `input#captcha`, `img.captcha-img`. */
function describe(el: Element): string {
  const tag = el.tagName.toLowerCase();
  if (el.id) return `${tag}#${el.id}`;
  const classes = Array.from(el.classList).slice(0, 2);
  const name = el.getAttribute("name");
  return classes.length ? `${tag}.${classes.join(".")}` : name ? `${tag}[name="${name}"]` : tag;
}
