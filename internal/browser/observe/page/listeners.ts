/// <reference lib="dom" />
/**
 * Click listeners: which elements a page script made clickable (`addEventListener("click", …)`,
 * `el.onclick = …`) though nothing in the DOM says so.
 *
 * Two halves talk through DOM events whose names carry a random per-run token:
 * - {@link recordClickListeners} runs in the page's own world before any page script (the
 *   browser package installs it on every new document). It notes each element that gets a
 *   click-like listener in a `WeakSet` and a list of weak references held in its closure: nothing
 *   on a global, so the page can neither see nor change the marks.
 * - The recorder also tells of a shadow root attached to an element (`${token}:shadow` on it),
 *   which the incremental walk hears (`walk_cache.ts`).
 * - {@link listenedElements} runs in the runtime's isolated world: it asks with one event, and
 *   the recorder answers with one event on each marked element in the document that it has not
 *   told of before; the runtime keeps what it was told in the document's state.
 *
 * @module
 */
import { docState } from "../../runtime/page/state.ts";

/**
 * Installs the recorder in this document (the page's world; bundled with the main world's entry,
 * `runtime/page/main_world_entry.ts`). It keeps the built-ins it needs from before page scripts
 * run, so a page that replaces them cannot break it.
 */
export function recordClickListeners(token: string): void {
  const g = globalThis as unknown as {
    EventTarget: typeof EventTarget;
    HTMLElement: typeof HTMLElement;
    Element: typeof Element;
    Node: typeof Node;
    Event: typeof Event;
    WeakRef: typeof WeakRef;
    WeakSet: typeof WeakSet;
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
  const marks = new g.WeakSet<Element>();
  const has = g.WeakSet.prototype.has, put = g.WeakSet.prototype.add;
  const connected = O.getOwnPropertyDescriptor(g.Node.prototype, "isConnected")!.get!;
  const refs: WeakRef<Element>[] = [];
  const mark = (target: unknown) => {
    if (!(target instanceof ElementCtor) || apply(has, marks, [target])) return;
    apply(put, marks, [target]);
    refs[refs.length] = new WeakRefCtor(target);
  };
  proto.addEventListener = new g.Proxy(add, {
    apply(fn, self, args: unknown[]) {
      const t = args[0];
      if (
        args[1] &&
        (t === "click" || t === "mousedown" || t === "mouseup" || t === "pointerdown" ||
          t === "pointerup")
      ) mark(self);
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
  for (const name of ["onclick", "onmousedown", "onpointerdown"]) {
    const d = O.getOwnPropertyDescriptor(g.HTMLElement.prototype, name);
    if (!d?.set) continue;
    O.defineProperty(g.HTMLElement.prototype, name, {
      ...d,
      set: new g.Proxy(d.set, {
        apply(fn, self, args: unknown[]) {
          if (typeof args[0] === "function") mark(self);
          return apply(fn, self, args);
        },
      }),
    });
  }
  // The isolated world asks on the document: for every marked element in it (`:all`, a runtime
  // that knows none yet), or for those it has not been told of (`:new`). Each one it is told of
  // answers with one event; one not in the document yet answers at a later ask.
  let told: WeakRef<Element>[] = [];
  const answer = (all: boolean) => {
    if (all) {
      for (let i = 0; i < told.length; i++) refs[refs.length] = told[i]!;
      told = [];
    }
    let kept = 0;
    for (let i = 0; i < refs.length; i++) {
      const ref = refs[i]!;
      const el = apply(deref, ref, []) as Element | undefined;
      if (!el) continue;
      if (apply(connected, el, [])) {
        apply(dispatch, el, [new EventCtor(`${token}:mark`, { composed: true })]);
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
 * The elements of this document that page scripts gave a click-like listener, as the recorder
 * saw them (none when it is not installed: a document loaded before it was). The recorder tells
 * each element once; this document's runtime keeps them.
 */
export function listenedElements(token: string): WeakSet<Element> {
  const state = docState();
  const known = state.listened ?? new WeakSet<Element>();
  const take = (e: Event) => {
    const t = e.composedPath()[0];
    if (!(t instanceof Element)) return;
    known.add(t);
    state.cache?.touch(t); // a new control where the last observation saw none
  };
  document.addEventListener(`${token}:mark`, take, true);
  try {
    document.dispatchEvent(new Event(`${token}:${state.listened ? "new" : "all"}`));
  } finally {
    document.removeEventListener(`${token}:mark`, take, true);
  }
  state.listened = known;
  return known;
}
