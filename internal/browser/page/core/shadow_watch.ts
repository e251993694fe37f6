/// <reference lib="dom" />
/**
 * A document found to hold no open shadow root is not searched for one again (every element
 * looked at: some 6 ms a look on a page of 13,000 elements) until something could have brought
 * one. Only these can, and each is heard:
 * - an element added that has one, or holds one that has (a declarative shadow root, a host moved
 *   in): the added nodes are looked at, from the mutation records taken at each look;
 * - a script that attaches a shadow root to an element already in the document (a custom
 *   element upgraded): the page's world tells of it (`${token}:shadow`, `observe/listeners.ts`).
 * So it is kept only where that teller answers (a document loaded before it was installed has
 * none), once the parser is done (it attaches declarative roots unseen), and when the search saw
 * the whole document.
 *
 * @module
 */
import { docState } from "./state.ts";

/** The events the page's world answers on (`observe/listeners.ts` installs the answer). */
export const SHADOW_TELLER = {
  /** The isolated world asks whether the teller is installed in this document. */
  ask: "shadows?",
  /** Its answer. */
  answer: "shadows",
  /** A shadow root was attached to the element it is dispatched on. */
  attached: "shadow",
} as const;

declare module "./state.ts" {
  interface DocState {
    /** The token of the page's world's recorder, once a walk asked it (`listenedElements`). */
    listenerToken?: string;
    /** The document holds no open shadow root, while this watch holds. */
    shadowless?: ShadowlessWatch;
  }
}

/** Watches a document that held no open shadow root for what could bring one. */
export class ShadowlessWatch {
  readonly #observer = new MutationObserver((records) => this.#take(records));
  readonly #stop = new AbortController();
  #broken = false;

  private constructor(token: string) {
    this.#observer.observe(document, { childList: true, subtree: true });
    const broken = () => this.#broken = true;
    document.addEventListener(`${token}:${SHADOW_TELLER.attached}`, broken, {
      capture: true,
      passive: true,
      signal: this.#stop.signal,
    });
  }

  /**
   * Starts watching this document, found to hold no open shadow root (the whole of it searched),
   * where it can be; returns the watch, or null.
   */
  static start(): ShadowlessWatch | null {
    const token = docState().listenerToken;
    if (!token || document.readyState === "loading" || !tellerAnswers(token)) return null;
    return new ShadowlessWatch(token);
  }

  /** Whether the document still holds no open shadow root; once not, the watch ends. */
  holds(): boolean {
    this.#take(this.#observer.takeRecords());
    if (this.#broken) this.stop();
    return !this.#broken;
  }

  /** Looks at the elements added (a root may be attached to them since: looked at when taken). */
  #take(records: MutationRecord[]): void {
    for (const r of records) {
      if (this.#broken) return;
      for (const n of r.addedNodes) if (n instanceof Element && holdsRoot(n)) this.#broken = true;
    }
  }

  stop(): void {
    this.#observer.disconnect();
    this.#stop.abort();
  }
}

/** Whether the page's world's teller answers in this document. */
function tellerAnswers(token: string): boolean {
  let answered = false;
  const hear = () => answered = true;
  document.addEventListener(`${token}:${SHADOW_TELLER.answer}`, hear, true);
  try {
    document.dispatchEvent(new Event(`${token}:${SHADOW_TELLER.ask}`));
  } finally {
    document.removeEventListener(`${token}:${SHADOW_TELLER.answer}`, hear, true);
  }
  return answered;
}

/** Whether `el` or an element inside it has a shadow root. */
function holdsRoot(el: Element): boolean {
  if (el.shadowRoot) return true;
  const all = el.getElementsByTagName("*");
  for (let i = 0; i < all.length; i++) if (all[i]!.shadowRoot) return true;
  return false;
}
