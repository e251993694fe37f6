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
 *   which the incremental walk hears (`walk_cache.ts`), and answers when asked whether it is
 *   installed (`core/shadow_watch.ts`: a document without shadow roots is not searched again).
 * - {@link listenedElements} runs in the runtime's isolated world: it asks with one event, and
 *   the recorder answers with one event per sign on each marked element in the document that it
 *   has not told of before (or that gained a sign since); the runtime keeps what it was told in
 *   the document's state.
 *
 * @module
 */
import { docState } from "../core/state.ts";
import { SHADOW_TELLER } from "../core/shadow_watch.ts";

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
 * `page/main_world_entry.ts`). It keeps the built-ins it needs from before page scripts
 * run, so a page that replaces them cannot break it.
 */
export function recordListenerSigns(token: string): void {
  const g = globalThis as unknown as Globals;
  const kept = keepBuiltins(g);
  const recorder = new SignRecorder(token, kept, g);
  wrapAddEventListener(g, kept, recorder);
  wrapAttachShadow(g, kept, token);
  wrapHandlerProperties(g, kept, recorder);
  // The isolated world asks on the document: for every marked element in it (`:all`, a runtime
  // that knows none yet), or for those it has not been told of (`:new`).
  kept.apply(kept.add, document, [`${token}:all`, () => recorder.answer(true), true]);
  kept.apply(kept.add, document, [`${token}:new`, () => recorder.answer(false), true]);
  // It also says it is here: where it is, no shadow root is attached unheard (`shadow_watch.ts`).
  const here = () =>
    kept.apply(kept.dispatch, document, [new kept.EventCtor(`${token}:${SHADOW_TELLER.answer}`)]);
  kept.apply(kept.add, document, [`${token}:${SHADOW_TELLER.ask}`, here, true]);
}

/** The globals the recorder reads while it installs, before page scripts run. */
interface Globals {
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
}

/** The built-ins the recorder calls once page scripts run, kept from before they do. */
type Kept = ReturnType<typeof keepBuiltins>;

function keepBuiltins(g: Globals) {
  const R = g.Reflect, O = g.Object;
  const proto = g.EventTarget.prototype;
  return {
    O,
    apply: R.apply,
    proto,
    add: proto.addEventListener,
    dispatch: proto.dispatchEvent,
    EventCtor: g.Event,
    ElementCtor: g.Element,
    WeakRefCtor: g.WeakRef,
    deref: g.WeakRef.prototype.deref,
  };
}

/**
 * The marks: each element's signs, in weak maps and a list of weak references held here, and
 * which of them the isolated world has been told of.
 */
class SignRecorder {
  readonly #signs: WeakMap<Element, number>;
  readonly #get: typeof WeakMap.prototype.get;
  readonly #set: typeof WeakMap.prototype.set;
  /** Elements with a sign not told yet (their references are in `#refs`). */
  readonly #pending: WeakSet<Element>;
  readonly #has: typeof WeakSet.prototype.has;
  readonly #put: typeof WeakSet.prototype.add;
  readonly #drop: typeof WeakSet.prototype.delete;
  readonly #connected: () => boolean;
  /** A lookup without a prototype: a page's `Object.prototype` additions cannot answer it. */
  readonly signOf: Record<string, number | undefined>;
  #refs: WeakRef<Element>[] = [];
  /** Elements told of already, to tell again at an `:all` ask. */
  #told: WeakRef<Element>[] = [];

  constructor(readonly token: string, readonly kept: Kept, g: Globals) {
    const O = kept.O;
    this.#signs = new g.WeakMap<Element, number>();
    this.#get = g.WeakMap.prototype.get;
    this.#set = g.WeakMap.prototype.set;
    this.#pending = new g.WeakSet<Element>();
    this.#has = g.WeakSet.prototype.has;
    this.#put = g.WeakSet.prototype.add;
    this.#drop = g.WeakSet.prototype.delete;
    this.#connected = O.getOwnPropertyDescriptor(g.Node.prototype, "isConnected")!.get!;
    this.signOf = O.create(null);
    for (const row of LISTENER_SIGNS) this.signOf[row.type] = row.sign;
  }

  /** Notes that `target` (an element, or not noted) got a listener that gives `sign`. */
  mark(target: unknown, sign: number): void {
    const { apply, ElementCtor, WeakRefCtor } = this.kept;
    if (!(target instanceof ElementCtor)) return;
    const had = (apply(this.#get, this.#signs, [target]) as number | undefined) ?? 0;
    if ((had & sign) === sign) return;
    apply(this.#set, this.#signs, [target, had | sign]);
    if (apply(this.#has, this.#pending, [target])) return;
    apply(this.#put, this.#pending, [target]);
    this.#refs[this.#refs.length] = new WeakRefCtor(target);
  }

  /**
   * Answers an ask: each element not told of yet (or every one, `all`) that is in the document
   * answers with one event per sign; one not in the document yet answers at a later ask.
   */
  answer(all: boolean): void {
    if (all) this.#untell();
    const { apply, deref } = this.kept;
    const refs = this.#refs;
    let kept = 0;
    for (let i = 0; i < refs.length; i++) {
      const ref = refs[i]!;
      const el = apply(deref, ref, []) as Element | undefined;
      if (!el) continue;
      if (apply(this.#connected, el, [])) this.#tell(el, ref);
      else refs[kept++] = ref;
    }
    refs.length = kept;
    this.#forgetGone();
  }

  /** Makes every element told of before pending again. */
  #untell(): void {
    const { apply, deref } = this.kept;
    const told = this.#told;
    for (let i = 0; i < told.length; i++) {
      const el = apply(deref, told[i]!, []) as Element | undefined;
      if (!el || apply(this.#has, this.#pending, [el])) continue;
      apply(this.#put, this.#pending, [el]);
      this.#refs[this.#refs.length] = told[i]!;
    }
    this.#told = [];
  }

  /** Tells of `el`'s signs, one event each on it. */
  #tell(el: Element, ref: WeakRef<Element>): void {
    const { apply, dispatch, EventCtor } = this.kept;
    const bits = apply(this.#get, this.#signs, [el]) as number;
    for (let b = 0; b < SIGN_NAMES.length; b++) {
      if (!(bits & (1 << b))) continue;
      const type = `${this.token}:${SIGN_NAMES[b]}`;
      apply(dispatch, el, [new EventCtor(type, { composed: true })]);
    }
    apply(this.#drop, this.#pending, [el]);
    this.#told[this.#told.length] = ref;
  }

  /** Forgets elements gone for good, now and then. */
  #forgetGone(): void {
    const told = this.#told;
    if (!(told.length > 1000 && told.length > 2 * (this.#refs.length + 500))) return;
    const { apply, deref } = this.kept;
    let n = 0;
    for (let i = 0; i < told.length; i++) if (apply(deref, told[i]!, [])) told[n++] = told[i]!;
    told.length = n;
  }
}

/** Marks the element each listener of a noted type is added to. */
function wrapAddEventListener(g: Globals, kept: Kept, recorder: SignRecorder): void {
  const { apply, proto, add } = kept;
  proto.addEventListener = new g.Proxy(add, {
    apply(fn, self, args: unknown[]) {
      const t = args[0];
      const sign = typeof t === "string" ? recorder.signOf[t] : undefined;
      if (sign && args[1]) recorder.mark(self, sign);
      return apply(fn, self, args);
    },
  });
}

/**
 * A shadow root attached to an element already shown changes what it shows without a DOM
 * mutation: the host tells the runtime (its incremental walk walks it again).
 */
function wrapAttachShadow(g: Globals, kept: Kept, token: string): void {
  const { apply, dispatch, EventCtor } = kept;
  const elementProto = kept.ElementCtor.prototype;
  elementProto.attachShadow = new g.Proxy(elementProto.attachShadow, {
    apply(fn, self, args: unknown[]) {
      const root = apply(fn, self, args);
      const attached = `${token}:${SHADOW_TELLER.attached}`;
      apply(dispatch, self, [new EventCtor(attached, { composed: true })]);
      return root;
    },
  });
}

/** Marks the element each `on…` handler property of a noted type is set on. */
function wrapHandlerProperties(g: Globals, kept: Kept, recorder: SignRecorder): void {
  const { O, apply } = kept;
  for (const { type, sign } of LISTENER_SIGNS) {
    const d = O.getOwnPropertyDescriptor(g.HTMLElement.prototype, `on${type}`);
    if (!d?.set) continue;
    O.defineProperty(g.HTMLElement.prototype, `on${type}`, {
      ...d,
      set: new g.Proxy(d.set, {
        apply(fn, self, args: unknown[]) {
          if (typeof args[0] === "function") recorder.mark(self, sign);
          return apply(fn, self, args);
        },
      }),
    });
  }
}

/**
 * The elements of this document that page scripts gave a listener of {@link LISTENER_SIGNS},
 * with their signs, as the recorder saw them (none when it is not installed: a document loaded
 * before it was). The recorder tells each element once per new sign; this document's runtime
 * keeps them.
 */
export function listenedElements(token: string): WeakMap<Element, number> {
  const state = docState();
  state.listenerToken = token;
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
