/**
 * The rules that name a control by its icon, as data: which class tokens carry an icon's name,
 * which words are noise, which words name what a control does, how glyphs and icon fonts read.
 * Each row says why; `icon_names.ts` is the one engine that reads them, and
 * `tests/icon_names_test.ts` checks every row.
 *
 * @module
 */

/** A class token pattern that says the token names an icon or what a control does. */
export interface MarkRow {
  mark: RegExp;
  /** A token it marks, and the name the engine gives it. */
  example: string;
  gives: string;
  reason: string;
}

/** Class tokens that name an icon (matched on the token in lower case). */
export const MARKS: readonly MarkRow[] = [
  {
    mark: /^fa-/,
    example: "fa-star-o",
    gives: "star",
    reason: "Font Awesome names its icons fa-*",
  },
  {
    mark: /^glyphicon-/,
    example: "glyphicon-trash",
    gives: "trash",
    reason: "Bootstrap 3 Glyphicons",
  },
  { mark: /^bi-/, example: "bi-x-lg", gives: "close", reason: "Bootstrap Icons" },
  {
    mark: /^mdi-/,
    example: "mdi-chevron-down",
    gives: "chevron down",
    reason: "Material Design Icons",
  },
  { mark: /^ion(icons?)?-/, example: "ion-ios-heart", gives: "ios heart", reason: "Ionicons" },
  { mark: /^ti-/, example: "ti-trash", gives: "trash", reason: "Tabler and Themify icons" },
  { mark: /^las?-/, example: "la-search", gives: "search", reason: "Line Awesome" },
  {
    mark: /^(oi|octicon)-/,
    example: "octicon-repo-forked",
    gives: "repo forked",
    reason: "Open Iconic and GitHub Octicons",
  },
  {
    mark: /^(feather|lucide)-/,
    example: "lucide-send",
    gives: "send",
    reason: "Feather and Lucide",
  },
  {
    mark: /^(ri|bx|bxs|bxl|pi|uil|gg|zmdi|lnr|wi)-/,
    example: "ri-delete-bin-line",
    gives: "delete bin",
    reason:
      "Remix, Boxicons, PrimeIcons, Unicons, css.gg, Material Iconic, Linearicons, Weather Icons",
  },
  {
    mark: /^(el-icon|anticon|icofont|flaticon|dashicons)-/,
    example: "el-icon-delete",
    gives: "delete",
    reason: "Element UI, Ant Design, IcoFont, Flaticon and WordPress Dashicons",
  },
  {
    mark: /(^|[-_])icons?([-_]|$)/,
    example: "btn-icon-send",
    gives: "send",
    reason: "a token with the word icon names the icon it draws",
  },
  {
    mark: /(^|[-_])sprite([-_]|$)/,
    example: "sprite-boost",
    gives: "boost",
    reason: "a sprite sheet's class names the picture it cuts out",
  },
  {
    mark: /^ql-/,
    example: "ql-bold",
    gives: "bold",
    reason: "Quill's toolbar buttons are named by the format they apply",
  },
  {
    mark: /^ui-/,
    example: "ui-spinner-up",
    gives: "spinner up",
    reason: "jQuery UI names the parts of its widgets",
  },
  {
    mark: /(^|[-_])(btn|button)([-_]|$)/,
    example: "btn-close",
    gives: "close",
    reason: "a button class named by what the button does",
  },
  {
    mark: /(^|[-_])js-/,
    example: "rv-js-autoplay",
    gives: "autoplay",
    reason: "script hooks are named by what they do",
  },
  {
    mark: /(^|[-_])action([-_]|$)/,
    example: "action-archive",
    gives: "archive",
    reason: "action classes name the action",
  },
];

/**
 * Class tokens that alone say an element is an icon without saying which (`class="icon fav"`):
 * its other, distinctive class names it (`icon_names.ts` {@link spriteName}).
 */
export const SPRITES: readonly { tokens: string; reason: string }[] = [
  {
    tokens: "icon icons ico ic",
    reason: "an icon drawn by a class of its own: a sprite or a font (ic: the usual short form)",
  },
  { tokens: "sprite sprites", reason: "a sprite sheet's picture, chosen by another class" },
  { tokens: "glyph glyphs", reason: "a font glyph chosen by another class" },
];

/** Words that name nothing a person sees, grouped by why (space-separated). */
export const NOISE: readonly { words: string; reason: string }[] = [
  {
    words: "icon icons ico ic glyph glyphicon svg sprite symbol img",
    reason: "say that it is an icon, not which",
  },
  {
    words:
      "fa fas far fal fab fad bi mdi ion ionicon ionicons ti la las lab oi octicon feather lucide ri bx bxs bxl pi uil gg zmdi lnr wi anticon icofont flaticon dashicons ql ui material mat md core",
    reason: "names of icon sets and widget libraries",
  },
  {
    words: "btn button buttons action actions ctrl control js txt lbl ddl chk cbo rdo lnk",
    reason: "say that it is a control, not which (and form-field name prefixes)",
  },
  {
    words:
      "o outline outlined solid regular light thin duotone filled fill sharp round rounded twotone alt line default",
    reason: "drawing variants of the same icon",
  },
  {
    words: "xs sm md lg xl xxl fw small large big mini tiny size",
    reason: "sizes",
  },
  {
    words:
      "white black grey gray red green blue yellow dark primary secondary success danger warning muted inverse ghost plain accent color colour",
    reason: "colours and emphasis",
  },
  {
    words:
      "active disabled hover focus focused selected pressed current hidden visible is has state",
    reason: "states, which the view shows apart",
  },
  {
    words:
      "widget component container wrapper wrap inner outer item element el corner clearfix all block inline flex pull float helper toolbar module",
    reason: "layout and structure",
  },
];

/** A value with one of these words names what a control does, even without an icon mark. */
export const CONTROL_WORDS: readonly { words: string; reason: string }[] = [
  {
    words:
      "send reply forward archive trash delete remove compose draft spam attach attachment mail email inbox",
    reason: "mail",
  },
  {
    words:
      "like share star favorite favourite heart bookmark follow retweet comment tweet vote rate report",
    reason: "social",
  },
  {
    words:
      "next prev previous back up down left right first last home menu close open expand collapse more less top bottom exit go arrow chevron caret",
    reason: "moving around",
  },
  {
    words:
      "bold italic underline strike edit add plus minus new save copy cut paste undo redo clear reset cancel ok done submit quote code align indent outdent list link image video table",
    reason: "editing",
  },
  {
    words:
      "search find filter sort refresh reload print download upload import export settings config help info play pause stop mute volume fullscreen zoom toggle check pin flag lock unlock show hide view eye increment decrement increase decrease spinner",
    reason: "tools",
  },
  {
    words:
      "login logout signin signout user account profile cart basket bag checkout buy notification notifications bell message chat call phone calendar date time clock location map camera mic logo",
    reason: "account and shop",
  },
];

/** Names for what an icon is called when it draws something else (× is "times" in Font Awesome). */
export const ALIASES: readonly { words: string; name: string; reason: string }[] = [
  { words: "times", name: "close", reason: "Font Awesome calls the close cross times (×)" },
  { words: "x", name: "close", reason: "a cross closes" },
  { words: "bars", name: "menu", reason: "three bars open a menu" },
  { words: "hamburger", name: "menu", reason: "three bars open a menu" },
  { words: "ellipsis", name: "more", reason: "three dots show more" },
  { words: "ellipsis h", name: "more", reason: "three dots show more" },
  { words: "ellipsis v", name: "more", reason: "three dots show more" },
  { words: "dots", name: "more", reason: "three dots show more" },
  { words: "kebab", name: "more", reason: "three dots show more" },
  { words: "magnifying glass", name: "search", reason: "a magnifier searches" },
  { words: "magnifier", name: "search", reason: "a magnifier searches" },
  { words: "cog", name: "settings", reason: "a cog opens settings" },
  { words: "gear", name: "settings", reason: "a gear opens settings" },
];

/** Single characters drawn as icons (text or CSS `content`), and what a person calls them. */
export const GLYPHS: readonly { glyphs: string; name: string; reason: string }[] = [
  { glyphs: "☆★✩✪✫✬✭✮✯⭐", name: "star", reason: "a star rates or favourites" },
  { glyphs: "♡♥❤", name: "heart", reason: "a heart likes" },
  { glyphs: "×✕✖✗✘⨯╳", name: "close", reason: "a cross closes or removes" },
  { glyphs: "▲△▴▵⏶⌃↑", name: "up", reason: "an arrow up" },
  { glyphs: "▼▽▾▿⏷⌄↓", name: "down", reason: "an arrow down" },
  { glyphs: "◀◁◂◃⏴‹«←", name: "previous", reason: "an arrow left goes back" },
  { glyphs: "▶▷▸▹⏵›»→", name: "next", reason: "an arrow right goes on" },
  { glyphs: "☰≡", name: "menu", reason: "three bars open a menu" },
  { glyphs: "⋮⋯…", name: "more", reason: "three dots show more" },
  { glyphs: "✓✔", name: "check", reason: "a tick confirms" },
  { glyphs: "✎✏", name: "edit", reason: "a pencil edits" },
  { glyphs: "🗑", name: "delete", reason: "a bin deletes" },
  { glyphs: "🔍🔎", name: "search", reason: "a magnifier searches" },
  { glyphs: "⚙", name: "settings", reason: "a cog opens settings" },
  { glyphs: "↻⟳🔄", name: "refresh", reason: "a round arrow reloads" },
  { glyphs: "+＋", name: "add", reason: "a plus adds" },
  { glyphs: "−➖", name: "minus", reason: "a minus takes away" },
  { glyphs: "ⓘℹ", name: "info", reason: "an i informs" },
  { glyphs: "✉", name: "mail", reason: "an envelope mails" },
  { glyphs: "⌂", name: "home", reason: "a house goes home" },
];

/** Classes (or tags) of icon fonts that draw a word as one glyph: the word is the icon's name. */
export const LIGATURES: readonly { name: string; reason: string }[] = [
  { name: "material-icons", reason: "Google Material Icons" },
  { name: "material-icons-outlined", reason: "Google Material Icons" },
  { name: "material-icons-round", reason: "Google Material Icons" },
  { name: "material-icons-sharp", reason: "Google Material Icons" },
  { name: "material-icons-two-tone", reason: "Google Material Icons" },
  { name: "material-symbols-outlined", reason: "Google Material Symbols" },
  { name: "material-symbols-rounded", reason: "Google Material Symbols" },
  { name: "material-symbols-sharp", reason: "Google Material Symbols" },
  { name: "mat-icon", reason: "Angular Material's icon element" },
];

/**
 * Attributes that name a control, in the order they are asked; `weak` ones count only with a
 * mark or a control word (an id is often generated).
 */
export const ATTRIBUTES: readonly { name: string; weak: boolean; reason: string }[] = [
  { name: "data-icon", weak: false, reason: "names the icon drawn" },
  { name: "data-action", weak: false, reason: "names what the control does" },
  { name: "data-command", weak: false, reason: "names what the control does" },
  { name: "data-cmd", weak: false, reason: "names what the control does" },
  { name: "data-testid", weak: false, reason: "test ids name the control" },
  { name: "data-test-id", weak: false, reason: "test ids name the control" },
  { name: "data-test", weak: false, reason: "test ids name the control" },
  { name: "data-qa", weak: false, reason: "test ids name the control" },
  { name: "data-cy", weak: false, reason: "test ids name the control" },
  { name: "name", weak: true, reason: "a form control's name, often what it does" },
  { name: "id", weak: true, reason: "an id, often what the control does" },
];

/** Attributes whose value is a tooltip: author's words, taken as written. */
export const TOOLTIPS: readonly string[] = [
  "data-tooltip",
  "data-title",
  "data-original-title",
  "data-bs-original-title",
  "data-tip",
];
