/// <reference lib="dom" />
/**
 * Listeners: which elements a page script made operable (`addEventListener("dblclick", …)`,
 * `el.onclick = …`) though nothing in the DOM says so, and by which verb of the mouse.
 *
 * Two halves talk through DOM events whose names carry a random per-run token:
 * - {@link recordListenerSigns} runs in the page's own world before any page script (the
 *   browser package installs it on every new document). It notes each element that gets a
 *   listener of a type in {@link LISTENER_SIGNS}, with the signs its listeners give, in weak
 *   maps and a list of weak references held in its closure: nothing on a global, so the page can
 *   neither see nor change the marks.
 * - The recorder also tells of a shadow root attached to an element (`${token}:shadow` on it),
 *   which the incremental walk hears (`walk_cache.ts`).
 * - {@link listenedElements} runs in the runtime's isolated world: it asks with one event, and
 *   the recorder answers with one event per sign on each marked element in the document that it
 *   has not told of before (or that gained a sign since); the runtime keeps what it was told in
 *   the document's state.
 *
 * @module
 */
import { docState } from "../../runtime/page/state.ts";

/** What a listener says about its element; an element's signs are a set of these bits. */
export const SIGN = {
  click: 1,
  press: 2,
  dblclick: 4,
  contextmenu: 8,
  hover: 16,
  drag: 32,
} as const;

/** The signs in bit order: the suffixes of the events that tell them. */
const SIGN_NAMES = ["click", "press", "dblclick", "contextmenu", "hover", "drag"] as const;

/**
 * The listener types the recorder notes, each a row with the sign it gives the element it is on
 * (also as an `on…` property, and as an inline attribute: {@link attributeSigns}).
 */
export const LISTENER_SIGNS: readonly { type: string; sign: number; reason: string }[] = [
  { type: "click", sign: SIGN.click, reason: "the element is clicked" },
  { type: "mousedown", sign: SIGN.press, reason: "a press acts: a custom button, a knob" },
  { type: "pointerdown", sign: SIGN.press, reason: "a press acts: a knob, a drawing area" },
  { type: "mouseup", sign: SIGN.press, reason: "the release of a press acts" },
  { type: "pointerup", sign: SIGN.press, reason: "the release of a press acts" },
  { type: "dblclick", sign: SIGN.dblclick, reason: "a calendar slot, a cell edited in place" },
  { type: "contextmenu", sign: SIGN.contextmenu, reason: "the element opens its own menu" },
  { type: "mouseenter", sign: SIGN.hover, reason: "the pointer's arrival acts: a hover menu" },
  { type: "mouseover", sign: SIGN.hover, reason: "the pointer's arrival acts (jQuery's hover)" },
  { type: "dragstart", sign: SIGN.drag, reason: "a script starts a drag from it" },
];

/**
 * Installs the recorder in this document (the page's world; bundled with the main world's entry,
 * `runtime/page/main_world_entry.ts`). It keeps the built-ins it needs from before page scripts
 * run, so a page that replaces them cannot break it.
 */
export function recordListenerSigns(token: string): void {
  const g = globalThis as unknown as {
    EventTarget: typeof EventTarget;
    HTMLElement: typeof HTMLElement;
    Element: typeof Element;
    Node: typeof Node;
    Event: typeof Event;
    WeakRef: typeof WeakRef;
    WeakSet: typeof WeakSet;
    WeakMap: typeof WeakMap;
    Proxy: ProxyConstructor;
    Reflect: typeof Reflect;
    Object: typeof Object;
  };
  const R = g.Reflect, O = g.Object;
  const apply = R.apply;
  const proto = g.EventTarget.prototype;
  const add = proto.addEventListener;
  const dispatch = proto.dispatchEvent;
  const EventCtor = g.Event;
  const ElementCtor = g.Element;
  const WeakRefCtor = g.WeakRef;
  const deref = g.WeakRef.prototype.deref;
  const signs = new g.WeakMap<Element, number>();
  const get = g.WeakMap.prototype.get, set = g.WeakMap.prototype.set;
  // Elements with a sign not told yet (their references are in `refs`).
  const pending = new g.WeakSet<Element>();
  const has = g.WeakSet.prototype.has, put = g.WeakSet.prototype.add;
  const drop = g.WeakSet.prototype.delete;
  const connected = O.getOwnPropertyDescriptor(g.Node.prototype, "isConnected")!.get!;
  // A lookup without a prototype: a page's `Object.prototype` additions cannot answer it.
  const signOf: Record<string, number | undefined> = O.create(null);
  for (const row of LISTENER_SIGNS) signOf[row.type] = row.sign;
  const refs: WeakRef<Element>[] = [];
  const mark = (target: unknown, sign: number) => {
    if (!(target instanceof ElementCtor)) return;
    const had = (apply(get, signs, [target]) as number | undefined) ?? 0;
    if ((had & sign) === sign) return;
    apply(set, signs, [target, had | sign]);
    if (apply(has, pending, [target])) return;
    apply(put, pending, [target]);
    refs[refs.length] = new WeakRefCtor(target);
  };
  proto.addEventListener = new g.Proxy(add, {
    apply(fn, self, args: unknown[]) {
      const t = args[0];
      const sign = typeof t === "string" ? signOf[t] : undefined;
      if (sign && args[1]) mark(self, sign);
      return apply(fn, self, args);
    },
  });
  // A shadow root attached to an element already shown changes what it shows without a DOM
  // mutation: the host tells the runtime (its incremental walk walks it again).
  const elementProto = ElementCtor.prototype;
  elementProto.attachShadow = new g.Proxy(elementProto.attachShadow, {
    apply(fn, self, args: unknown[]) {
      const root = apply(fn, self, args);
      apply(dispatch, self, [new EventCtor(`${token}:shadow`, { composed: true })]);
      return root;
    },
  });
  for (const { type, sign } of LISTENER_SIGNS) {
    const d = O.getOwnPropertyDescriptor(g.HTMLElement.prototype, `on${type}`);
    if (!d?.set) continue;
    O.defineProperty(g.HTMLElement.prototype, `on${type}`, {
      ...d,
      set: new g.Proxy(d.set, {
        apply(fn, self, args: unknown[]) {
          if (typeof args[0] === "function") mark(self, sign);
          return apply(fn, self, args);
        },
      }),
    });
  }
  // The isolated world asks on the document: for every marked element in it (`:all`, a runtime
  // that knows none yet), or for those it has not been told of (`:new`). Each one it is told of
  // answers with one event per sign; one not in the document yet answers at a later ask.
  let told: WeakRef<Element>[] = [];
  const answer = (all: boolean) => {
    if (all) {
      for (let i = 0; i < told.length; i++) {
        const el = apply(deref, told[i]!, []) as Element | undefined;
        if (!el || apply(has, pending, [el])) continue;
        apply(put, pending, [el]);
        refs[refs.length] = told[i]!;
      }
      told = [];
    }
    let kept = 0;
    for (let i = 0; i < refs.length; i++) {
      const ref = refs[i]!;
      const el = apply(deref, ref, []) as Element | undefined;
      if (!el) continue;
      if (apply(connected, el, [])) {
        const bits = apply(get, signs, [el]) as number;
        for (let b = 0; b < SIGN_NAMES.length; b++) {
          if (!(bits & (1 << b))) continue;
          const type = `${token}:${SIGN_NAMES[b]}`;
          apply(dispatch, el, [new EventCtor(type, { composed: true })]);
        }
        apply(drop, pending, [el]);
        told[told.length] = ref;
      } else refs[kept++] = ref;
    }
    refs.length = kept;
    // Forget elements gone for good, now and then.
    if (told.length > 1000 && told.length > 2 * (refs.length + 500)) {
      let n = 0;
      for (let i = 0; i < told.length; i++) if (apply(deref, told[i]!, [])) told[n++] = told[i]!;
      told.length = n;
    }
  };
  apply(add, document, [`${token}:all`, () => answer(true), true]);
  apply(add, document, [`${token}:new`, () => answer(false), true]);
}

/**
 * The elements of this document that page scripts gave a listener of {@link LISTENER_SIGNS},
 * with their signs, as the recorder saw them (none when it is not installed: a document loaded
 * before it was). The recorder tells each element once per new sign; this document's runtime
 * keeps them.
 */
export function listenedElements(token: string): WeakMap<Element, number> {
  const state = docState();
  const known = state.listened ?? new WeakMap<Element, number>();
  const takers = SIGN_NAMES.map((name, b) => {
    const take = (e: Event) => {
      const t = e.composedPath()[0];
      if (!(t instanceof Element)) return;
      const had = known.get(t) ?? 0;
      if (had & (1 << b)) return;
      known.set(t, had | (1 << b));
      state.cache?.touch(t); // a new control, or a new verb, where the last observation saw none
    };
    return [`${token}:${name}`, take] as const;
  });
  for (const [type, take] of takers) document.addEventListener(type, take, true);
  try {
    document.dispatchEvent(new Event(`${token}:${state.listened ? "new" : "all"}`));
  } finally {
    for (const [type, take] of takers) document.removeEventListener(type, take, true);
  }
  state.listened = known;
  return known;
}

/** Inline handler attributes, each with the sign it gives (`<td ondblclick="edit(this)">`). */
const ATTRIBUTE_SIGNS = new Map<string, number>([
  ["ondblclick", SIGN.dblclick],
  ["oncontextmenu", SIGN.contextmenu],
  ["ondragstart", SIGN.drag],
  ["onmouseenter", SIGN.hover],
  ["onmouseover", SIGN.hover],
  ["onmousedown", SIGN.press],
  ["onpointerdown", SIGN.press],
]);

/**
 * The signs `el`'s inline handler attributes give (the recorder sees no such handler): one pass
 * over its attribute names, only those that start with "on" looked up.
 */
export function attributeSigns(el: Element): number {
  if (!el.hasAttributes()) return 0;
  let bits = 0;
  for (const name of el.getAttributeNames()) {
    if (name.charCodeAt(0) === 111 && name.charCodeAt(1) === 110) {
      bits |= ATTRIBUTE_SIGNS.get(name) ?? 0;
    }
  }
  return bits;
}
