import type { Frame } from "puppeteer-core";

/** Where an ID points: a frame, the document's token, and the element's local number there. */
export interface ElementRef {
  frame: Frame;
  token: string;
  lid: number;
}

/**
 * Run-wide element numbering. An element keeps its number while it stays in its document;
 * numbers are never reused for another element. Numbers of frames that went away are dropped
 * ({@link prune}), so a long run on pages with many short-lived frames does not grow without end.
 */
export class ElementIds {
  #next = 1;
  /** Per document token, its local numbers' IDs (an observation asks for every element's). */
  #byKey = new Map<string, Map<number, number>>();
  #byId = new Map<number, ElementRef>();

  /** The run-wide ID of a frame-local element, assigned on first sight. */
  assign(frame: Frame, token: string, lid: number): { id: number; fresh: boolean } {
    let ids = this.#byKey.get(token);
    const known = ids?.get(lid);
    if (known !== undefined) return { id: known, fresh: false };
    if (!ids) this.#byKey.set(token, ids = new Map());
    const id = this.#next++;
    ids.set(lid, id);
    this.#byId.set(id, { frame, token, lid });
    return { id, fresh: true };
  }

  /** The ID given to a frame-local element, if one was (never assigns one). */
  find(token: string, lid: number): number | undefined {
    return this.#byKey.get(token)?.get(lid);
  }

  /** Where an ID points, or undefined when it was never given out or its frame is gone. */
  lookup(id: number): ElementRef | undefined {
    return this.#byId.get(id);
  }

  /** True when `id` was given out in this run (even if its element or frame is gone since). */
  given(id: number): boolean {
    return Number.isInteger(id) && id >= 1 && id < this.#next;
  }

  /**
   * Forgets the numbers of elements in frames that are detached, and of documents that a frame
   * no longer shows (`current`: each walked frame's document token); returns how many.
   */
  prune(current: ReadonlyMap<Frame, string> = new Map()): number {
    let n = 0;
    for (const [id, ref] of this.#byId) {
      const shown = current.get(ref.frame);
      if (!ref.frame.detached && (shown === undefined || shown === ref.token)) continue;
      this.#byId.delete(id);
      const ids = this.#byKey.get(ref.token);
      ids?.delete(ref.lid);
      if (ids?.size === 0) this.#byKey.delete(ref.token);
      n++;
    }
    return n;
  }

  /** How many numbers point at live frames (for tests). */
  get size(): number {
    return this.#byId.size;
  }
}
