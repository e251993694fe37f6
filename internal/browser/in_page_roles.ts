/// <reference lib="dom" />
/**
 * In-page helpers for text, roles and interactivity, installed on the isolated world's
 * `__browserAgentHelpers` global (see `in_page_install.ts`). The install function is serialised
 * on its own by `evaluate`: it must not use anything from outside its own body.
 *
 * @module
 */
import type { Helpers, RoleHelpers, TextHelpers } from "./in_page_types.ts";

/** Installs the `text` and `roles` helpers in this document's isolated world. */
export function installRoles(): void {
  const h = (globalThis as unknown as { __browserAgentHelpers?: Helpers })
    .__browserAgentHelpers ??= {};

  const clean = (s: string | null | undefined): string => (s ?? "").replace(/\s+/g, " ").trim();
  // Cut at a word's end when one is near, so no word is left half.
  const cut = (s: string, n: number): string => {
    if (s.length <= n) return s;
    const head = s.slice(0, n - 1);
    const space = head.lastIndexOf(" ");
    return (space > n * 0.8 && /\S/.test(s[n - 1]!) ? head.slice(0, space) : head).trimEnd() + "…";
  };
  const norm = (s: string): string =>
    clean(s).normalize("NFKC").toLowerCase().normalize("NFD").replace(/\p{M}/gu, "");
  const text: TextHelpers = { clean, cut, norm };

  const ROLES = new Set([
    "button",
    "link",
    "checkbox",
    "radio",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "switch",
    "combobox",
    "textbox",
    "searchbox",
    "slider",
    "spinbutton",
    "treeitem",
    "listbox",
    "gridcell",
  ]);

  const textOfIds = (el: Element, ids: string): string => {
    const root = el.getRootNode() as Document | ShadowRoot;
    let out = "";
    for (const id of ids.split(/\s+/)) {
      const t = id ? root.getElementById(id) : null;
      if (t) out += " " + ((t as HTMLElement).innerText || t.textContent || "");
    }
    return clean(out);
  };

  const implicitRole = (el: Element): string => {
    const r = el.getAttribute("role");
    if (r) return r.split(" ")[0]!;
    switch (el.localName) {
      case "a":
        return "link";
      case "button":
      case "summary":
        return "button";
      case "select":
        return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1
          ? "listbox"
          : "combobox";
      case "textarea":
        return "textbox";
      case "input": {
        const t = (el as HTMLInputElement).type;
        if (t === "checkbox" || t === "radio") return t;
        if (t === "range") return "slider";
        if (t === "number") return "spinbutton";
        if (t === "search") return "searchbox";
        if (["button", "submit", "reset", "image", "file", "color"].includes(t)) return "button";
        return el.hasAttribute("list") ? "combobox" : "textbox";
      }
    }
    return (el as HTMLElement).isContentEditable ? "textbox" : "generic";
  };

  const interactive = (el: Element, s: CSSStyleDeclaration, parentPointer: boolean): number => {
    const tag = el.localName;
    if (tag === "a") return el.hasAttribute("href") ? 2 : el.hasAttribute("onclick") ? 1 : 0;
    if (tag === "button" || tag === "select" || tag === "textarea") return 2;
    if (tag === "summary") return el.parentElement?.localName === "details" ? 2 : 0;
    if (tag === "input") return (el as HTMLInputElement).type === "hidden" ? 0 : 2;
    const role = el.getAttribute("role");
    if (role && ROLES.has(role)) return 2;
    const html = el as HTMLElement;
    if (html.isContentEditable) return el.parentElement?.isContentEditable ? 0 : 2;
    if (tag === "label") {
      // A label drawn in place of a control that is not rendered (custom toggles) is what gets clicked.
      const c = (el as HTMLLabelElement).control;
      return c && !c.checkVisibility() ? 2 : 0;
    }
    if (tag === "body" || tag === "html") return 0;
    if (
      el.hasAttribute("onclick") || el.hasAttribute("jsaction") || el.hasAttribute("ng-click") ||
      el.hasAttribute("@click") || el.hasAttribute("v-on:click")
    ) {
      return 1;
    }
    const ti = el.getAttribute("tabindex");
    if (ti !== null && Number(ti) >= 0) return 1;
    if (s.cursor === "pointer" && !parentPointer) return 1;
    return 0;
  };

  const isToggle = (el: Element) =>
    el.localName === "input" && /^(checkbox|radio)$/.test((el as HTMLInputElement).type);

  const nameOf = (el: Element): string =>
    cut(
      clean(
        el.getAttribute("aria-label") ??
          (el.id ? el.id : el.getAttribute("role") ?? el.localName),
      ),
      40,
    );

  const selector =
    "a[href],button,input:not([type=hidden]),select,textarea,summary,[role=button],[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option],[role=switch],[role=combobox],[role=textbox],[role=slider],[onclick],[tabindex]:not([tabindex='-1'])";

  const skip = new Set([
    "script",
    "style",
    "noscript",
    "template",
    "head",
    "meta",
    "link",
    "title",
    "option",
    "optgroup",
    "datalist",
    "br",
    "wbr",
  ]);
  const leaf = new Set([
    "input",
    "select",
    "textarea",
    "img",
    "video",
    "audio",
    "canvas",
    "object",
    "embed",
    "svg",
    "math",
    "iframe",
    "frame",
    "progress",
    "meter",
  ]);

  const focusAndModal = () => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    if (active === document.body || active === document.documentElement) active = null;
    const focusForm = active?.closest("form, [role=form], [role=search]") ?? null;
    let modalEl: Element | null = null;
    for (const d of document.querySelectorAll("dialog, [role=dialog], [role=alertdialog]")) {
      const modal = d.localName === "dialog"
        ? d.matches(":modal")
        : d.getAttribute("aria-modal") === "true" || d.getAttribute("role") === "alertdialog";
      if (!modal || !d.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
        continue;
      }
      const r = d.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) modalEl = d;
    }
    return { active, focusForm, modalEl };
  };

  // The same numbering as `frameIdOf` (in_page_refs.ts), on the same global.
  const frameId = (el: Element): number => {
    const frames = (globalThis as unknown as {
      __browserAgentFrames?: { ids: WeakMap<Element, number>; next: number };
    }).__browserAgentFrames ??= { ids: new WeakMap(), next: 1 };
    let fid = frames.ids.get(el);
    if (fid === undefined) frames.ids.set(el, fid = frames.next++);
    return fid;
  };

  const roles: RoleHelpers = {
    textOfIds,
    implicitRole,
    interactive,
    isToggle,
    nameOf,
    selector,
    skip,
    leaf,
    focusAndModal,
    frameId,
  };
  h.text = text;
  h.roles = roles;
}
