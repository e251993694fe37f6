/// <reference lib="dom" />
/**
 * In-page measurement of what an action changed, run in puppeteer's isolated world. Each
 * function is serialised on its own: it must not use anything from outside its own body.
 *
 * @module
 */

/** The state of the acted-on element, as a person would see it. */
export interface TargetState {
  connected: boolean;
  /** Drawn on screen (not `display: none`, `visibility: hidden` or zero-sized). */
  visible: boolean;
  /** It has the keyboard focus. */
  focused: boolean;
  /** A field's value (passwords masked), or a contenteditable's text. */
  value?: string;
  checked?: boolean;
  /** `aria-expanded`, `aria-selected`, `aria-pressed` or `open`, when the element has one. */
  expanded?: string;
  selected?: string;
  pressed?: string;
}

/** A snapshot of what a person notices: focus, visible text, busy indicators, the target. */
export interface EffectSnapshot {
  /** Short description of the focused element; "" when nothing in particular has focus. */
  focus: string;
  /** Hash and length of the document's visible text. */
  textHash: number;
  textLength: number;
  /** A loading indicator is visible: `aria-busy`, a progress bar, or a line "Loading…". */
  busy: boolean;
  scrollY: number;
  target?: TargetState;
}

/** What the DOM did between the two {@link measureEffects} calls of an action. */
export interface DomChanges {
  /** False when the document was replaced in between (its tracker is gone). */
  tracked: boolean;
  /** Visible elements added (descendants included), capped at 500. */
  added: number;
  /** Elements removed (descendants included). */
  removed: number;
  /** The first words of up to two added blocks. */
  samples: string[];
}

/**
 * Takes a snapshot of what a person notices. With `"start"` it also starts counting DOM changes
 * in this document; with `"end"` it stops and reports them in `changes`.
 */
export function measureEffects(
  target: Element | null,
  phase: "start" | "end",
): EffectSnapshot & { changes?: DomChanges } {
  type Tracker = { observer: MutationObserver; added: Set<Element>; removed: number };
  const g = globalThis as unknown as { __browserAgentEffects?: Tracker };
  const SKIP = new Set(["script", "style", "link", "meta", "template", "noscript"]);
  let changes: DomChanges | undefined;
  const old = g.__browserAgentEffects;
  old?.observer.disconnect();
  delete g.__browserAgentEffects;
  if (phase === "start") {
    const tracker: Tracker = {
      added: new Set(),
      removed: 0,
      observer: new MutationObserver((records) => record(tracker, records)),
    };
    tracker.observer.observe(document, { childList: true, subtree: true });
    g.__browserAgentEffects = tracker;
  } else {
    changes = { tracked: old !== undefined, added: 0, removed: 0, samples: [] };
    if (old) {
      record(old, old.observer.takeRecords());
      count(old, changes);
    }
  }
  const out: EffectSnapshot & { changes?: DomChanges } = snapshot();
  if (target) out.target = stateOf(target);
  if (changes) out.changes = changes;
  return out;

  function record(tracker: Tracker, records: MutationRecord[]): void {
    for (const r of records) {
      for (const n of Array.from(r.addedNodes)) {
        if (n instanceof Element && !SKIP.has(n.localName)) tracker.added.add(n);
      }
      for (const n of Array.from(r.removedNodes)) {
        if (!(n instanceof Element) || SKIP.has(n.localName)) continue;
        if (tracker.added.delete(n)) continue; // added and removed again: no net change
        tracker.removed += 1 + n.getElementsByTagName("*").length;
      }
    }
  }

  function count(tracker: Tracker, out: DomChanges): void {
    out.removed = tracker.removed;
    const visible = (el: Element) => el.checkVisibility({ visibilityProperty: true });
    for (const root of tracker.added) {
      if (!root.isConnected || out.added >= 500) continue;
      let p = root.parentElement, nested = false;
      while (p && !nested) {
        nested = tracker.added.has(p);
        p = p.parentElement;
      }
      if (nested || !visible(root)) continue;
      out.added++;
      for (const d of Array.from(root.getElementsByTagName("*"))) {
        if (out.added >= 500) break;
        if (visible(d)) out.added++;
      }
      const text = root instanceof HTMLElement ? root.innerText.replace(/\s+/g, " ").trim() : "";
      if (text && out.samples.length < 2) {
        out.samples.push(text.length > 50 ? text.slice(0, 49) + "…" : text);
      }
    }
  }

  function snapshot(): EffectSnapshot {
    const text = document.body?.innerText ?? "";
    let hash = 0;
    for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
    const busyLine =
      /(^|\n)[ \t]*(loading|please wait|загрузка|chargement|cargando|carregando|caricamento|wird geladen|laden|加载中|読み込み中)[ \t]*(\.\.\.|…)?[ \t]*(\n|$)/i;
    const busyEl = document.querySelector('[aria-busy="true"], [role="progressbar"], progress');
    const busy = busyLine.test(text) ||
      (busyEl !== null && busyEl.checkVisibility({ visibilityProperty: true }));
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return {
      focus: active && active !== document.body && active !== document.documentElement
        ? describe(active)
        : "",
      textHash: hash,
      textLength: text.length,
      busy,
      scrollY: Math.round(scrollY),
    };
  }

  function describe(el: Element): string {
    const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
    const type = el instanceof HTMLInputElement ? ` type=${el.type}` : "";
    const label = clean(el.getAttribute("aria-label")) ||
      clean(el.getAttribute("placeholder")) ||
      (el instanceof HTMLInputElement && el.labels?.[0] ? clean(el.labels[0].textContent) : "") ||
      clean(el.textContent).slice(0, 40) || clean(el.getAttribute("name"));
    return `<${el.localName}${type}>${label ? ` "${label}"` : ""}`;
  }

  function stateOf(el: Element): TargetState {
    const r = el.getBoundingClientRect();
    const s: TargetState = {
      connected: el.isConnected,
      visible: el.checkVisibility({ visibilityProperty: true }) && r.width > 0 && r.height > 0,
      focused: false,
    };
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    s.focused = active === el;
    if (el instanceof HTMLInputElement) {
      if (el.type === "checkbox" || el.type === "radio") s.checked = el.checked;
      else if (el.type === "password") s.value = "•".repeat(Math.min(el.value.length, 8));
      else if (el.type !== "file") s.value = el.value;
      else s.value = Array.from(el.files ?? [], (f) => f.name).join(", ");
    } else if (el instanceof HTMLTextAreaElement) s.value = el.value;
    else if (el instanceof HTMLSelectElement) {
      s.value = Array.from(el.selectedOptions, (o) => o.text.trim()).join(", ");
    } else if (el instanceof HTMLElement && el.isContentEditable) s.value = el.innerText;
    const aria = (name: string) => el.getAttribute(name) ?? undefined;
    const checked = aria("aria-checked");
    if (s.checked === undefined && checked !== undefined) s.checked = checked === "true";
    const expanded = aria("aria-expanded") ??
      (el instanceof HTMLDetailsElement ? String(el.open) : undefined) ??
      (el.parentElement instanceof HTMLDetailsElement && el.localName === "summary"
        ? String(el.parentElement.open)
        : undefined);
    if (expanded !== undefined) s.expanded = expanded;
    const selected = aria("aria-selected");
    if (selected !== undefined) s.selected = selected;
    const pressed = aria("aria-pressed");
    if (pressed !== undefined) s.pressed = pressed;
    return s;
  }
}
