/// <reference lib="dom" />
/**
 * In-page helpers that describe a listed element as a screen reader would: role, attributes,
 * states, value and accessible name. Installed on the isolated world's `__browserAgentHelpers`
 * global after the `text` and `roles` helpers (see `in_page_install.ts`); the install function is
 * serialised on its own by `evaluate`: it must not use anything from outside its own body.
 *
 * @module
 */
import type {
  AgentState,
  Ctl,
  DescribeHelpers,
  ElementItem,
  Helpers,
  WalkScope,
} from "./in_page_types.ts";

/** Installs the `describe` helpers in this document's isolated world. */
export function installDescribe(): void {
  const h = (globalThis as unknown as { __browserAgentHelpers?: Helpers })
    .__browserAgentHelpers ??= {};
  if (!h.text || !h.roles) throw new Error("Install the text and role helpers first");
  const { clean, cut, norm } = h.text;
  const { textOfIds } = h.roles;

  const isFresh = (w: WalkScope, el: Element): boolean => {
    for (let n: Node | null = el; n; n = n.parentNode ?? (n as ShadowRoot).host ?? null) {
      if (w.added.has(n) || (n instanceof Element && w.wasHidden.has(n))) return true;
      if (n === document.body) break;
    }
    return false;
  };

  const idFor = (w: WalkScope, el: Element): number => {
    const state = w.state;
    let lid = state.ids.get(el);
    if (lid === undefined) {
      lid = state.next++;
      state.ids.set(el, lid);
      state.els.set(lid, new WeakRef(el));
    }
    return lid;
  };

  const describe = (w: WalkScope, el: Element, role: string, where: number, y: number): Ctl => {
    const o = w.o;
    const tag = el.localName;
    const attrs: string[] = [];
    const states: string[] = [];
    const explicitRole = el.getAttribute("role");
    if (explicitRole && tag !== explicitRole) attrs.push(`role=${explicitRole}`);
    let value: string | undefined;
    const html = el as HTMLElement;
    if (tag === "input") {
      const input = el as HTMLInputElement;
      attrs.push(`type=${input.type}`);
      if (input.type === "password") {
        if (input.value) value = "••••••";
      } else if (input.type === "checkbox" || input.type === "radio") {
        if (input.indeterminate) states.push("MIXED");
      } else if (
        !["submit", "button", "reset", "image", "file"].includes(input.type) && input.value
      ) {
        value = cut(input.value, o.maxLabel);
      }
      if (input.readOnly) states.push("READONLY");
    } else if (tag === "textarea") {
      const ta = el as HTMLTextAreaElement;
      if (ta.value) value = cut(clean(ta.value), o.maxLabel);
      if (ta.readOnly) states.push("READONLY");
    } else if (tag === "select") {
      const sel = el as HTMLSelectElement;
      const opts = sel.options;
      const names: string[] = [];
      for (let i = 0; i < opts.length && i < 6; i++) names.push(clean(opts[i]!.textContent));
      attrs.push(
        `options=${
          JSON.stringify(
            cut(names.join("|"), 100) + (opts.length > 6 ? `|…${opts.length} in all` : ""),
          )
        }`,
      );
      const chosen: string[] = [];
      for (const opt of sel.selectedOptions) chosen.push(clean(opt.textContent));
      if (chosen.length) value = cut(chosen.join(", "), o.maxLabel);
    } else if (html.isContentEditable) {
      attrs.push("contenteditable");
    }
    if (role === "slider" || role === "spinbutton" || role === "progressbar") {
      const now = el.getAttribute("aria-valuetext") ?? el.getAttribute("aria-valuenow");
      if (now !== null && value === undefined) value = now;
    }
    if (
      (tag === "input" || tag === "select" || tag === "textarea") &&
        (el as HTMLInputElement).required || el.getAttribute("aria-required") === "true"
    ) {
      states.push("REQUIRED");
    }
    const aChecked = el.getAttribute("aria-checked");
    if (aChecked === "true") states.push("CHECKED");
    else if (aChecked === "false") states.push("UNCHECKED");
    else if (aChecked === "mixed") states.push("MIXED");
    if (el.getAttribute("aria-selected") === "true") states.push("SELECTED");
    const exp = el.getAttribute("aria-expanded");
    if (exp === "true") states.push("EXPANDED");
    else if (exp === "false") states.push("COLLAPSED");
    else if (tag === "summary") {
      states.push((el.parentElement as HTMLDetailsElement).open ? "EXPANDED" : "COLLAPSED");
    }
    const pressed = el.getAttribute("aria-pressed");
    if (pressed === "true") states.push("PRESSED");
    const current = el.getAttribute("aria-current");
    if (current && current !== "false") states.push("CURRENT");
    if (
      ((tag === "button" || tag === "input" || tag === "select" || tag === "textarea") &&
        el.matches(":disabled")) || el.getAttribute("aria-disabled") === "true"
    ) {
      states.push("DISABLED");
    }
    if (el.getAttribute("aria-invalid") === "true" || el.matches(":user-invalid")) {
      states.push("INVALID");
    }
    if (el === w.active) states.push("FOCUSED");
    const lid = idFor(w, el);
    const item: ElementItem = {
      kind: "el",
      lid,
      tag,
      role,
      attrs,
      states,
      label: "",
      where,
      y,
    };
    if (value !== undefined) item.value = value;
    if (tag === "a") {
      const dest = (el as HTMLAnchorElement).href;
      if (dest) item.dest = dest;
    }
    if (w.observing && w.seenBefore && isFresh(w, el)) item.fresh = true;
    return { item, el, buf: "", sr: "" };
  };

  /** Fills in a control's label once its subtree was walked (accessible-name order). */
  const finish = (w: WalkScope, c: Ctl) => {
    const o = w.o;
    const { el, item } = c;
    const tag = el.localName;
    let label = "";
    const by = el.getAttribute("aria-labelledby");
    if (by) label = textOfIds(el, by);
    if (!label) label = clean(el.getAttribute("aria-label"));
    const field = tag === "input" || tag === "select" || tag === "textarea";
    if (!label && field) {
      const labels = (el as HTMLInputElement).labels;
      if (labels) {
        // The label's own text: not the text of the control it wraps (a select's options).
        let t = "";
        for (const l of labels) {
          const tw = document.createTreeWalker(l, NodeFilter.SHOW_TEXT);
          for (let n = tw.nextNode(); n; n = tw.nextNode()) {
            const p = n.parentElement;
            if (p && (el.contains(p) || p.closest("select, textarea, option, script, style"))) {
              continue;
            }
            t += " " + (n as Text).data;
          }
        }
        label = clean(t);
      }
      const type = (el as HTMLInputElement).type;
      if (!label && tag === "input" && /^(submit|button|reset)$/.test(type)) {
        label = clean((el as HTMLInputElement).value) || (type === "submit" ? "Submit" : "");
      }
      if (!label && type === "image") label = clean(el.getAttribute("alt"));
    }
    if (!label && tag === "img") label = clean(el.getAttribute("alt"));
    const editable = (el as HTMLElement).isContentEditable;
    if (!label && !field && !editable) label = clean(c.buf);
    if (editable && c.buf && item.value === undefined) item.value = cut(clean(c.buf), o.maxLabel);
    if (!label) label = clean(el.getAttribute("title"));
    const ph = clean(el.getAttribute("placeholder") ?? el.getAttribute("aria-placeholder"));
    if (!label && ph) label = ph;
    else if (ph && ph !== label) item.attrs.push(`placeholder=${JSON.stringify(cut(ph, 60))}`);
    if (!label && !field) label = clean(c.sr);
    if (!label && tag === "a") {
      const href = el.getAttribute("href") ?? "";
      if (href && !href.startsWith("javascript:")) {
        // The path tells where an unlabelled link leads; a long query is tracking noise.
        const path = href.replace(/^https?:\/\/[^/]+/, "") || "/";
        const short = path.length > 40 ? path.replace(/[?#].*$/, "") || "/" : path;
        item.attrs.push(`href=${JSON.stringify(cut(short, 50))}`);
      }
    }
    const box = tag === "label" ? (el as HTMLLabelElement).control : el;
    if (box?.localName === "input") {
      const type = (box as HTMLInputElement).type;
      if (type === "checkbox" || type === "radio") {
        label = `${(box as HTMLInputElement).checked ? "☑" : "☐"} ${label}`.trim();
      }
    }
    item.label = cut(label, o.maxLabel);
  };

  const begin = (observing: boolean) => {
    const g = globalThis as unknown as { __browserAgent?: AgentState };
    const state: AgentState = g.__browserAgent ??= {
      token: Math.random().toString(36).slice(2, 10),
      next: 1,
      ids: new WeakMap(),
      els: new Map(),
      observed: 0,
      added: new Set(),
      hidden: new WeakSet(),
    };
    // What was added to the document or hidden at the last observation tells which are new.
    if (observing && !state.mo) {
      state.mo = new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) state.added.add(n);
      });
      state.mo.observe(document, { childList: true, subtree: true });
    }
    if (state.mo) {
      for (const r of state.mo.takeRecords()) for (const n of r.addedNodes) state.added.add(n);
    }
    const seenBefore = state.observed > 0;
    const added = state.added;
    const wasHidden = state.hidden;
    const nowHidden = new WeakSet<Element>();
    if (observing) {
      state.observed++;
      state.added = new Set();
      state.hidden = nowHidden;
    }
    return { state, seenBefore, added, wasHidden, nowHidden };
  };

  const matches = (it: ElementItem, query: string, role: string | undefined): boolean => {
    if (role && it.role !== role && !(role === "textbox" && it.role === "searchbox")) return false;
    return !query || norm(`${it.label} ${it.value ?? ""} ${it.attrs.join(" ")}`).includes(query);
  };

  const helpers: DescribeHelpers = { describe, finish, begin, matches };
  h.describe = helpers;
}
