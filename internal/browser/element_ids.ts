import type { Frame } from "puppeteer-core";

/** Where an ID points: a frame, the document's token, and the element's local number there. */
export interface ElementRef {
  frame: Frame;
  token: string;
  lid: number;
}

/**
 * Run-wide element numbering. An element keeps its number while it stays in its document;
 * numbers are never reused for another element.
 */
export class ElementIds {
  #next = 1;
  #byKey = new Map<string, number>();
  #byId = new Map<number, ElementRef>();

  /** The run-wide ID of a frame-local element, assigned on first sight. */
  assign(frame: Frame, token: string, lid: number): { id: number; fresh: boolean } {
    const key = `${token}:${lid}`;
    const known = this.#byKey.get(key);
    if (known !== undefined) return { id: known, fresh: false };
    const id = this.#next++;
    this.#byKey.set(key, id);
    this.#byId.set(id, { frame, token, lid });
    return { id, fresh: true };
  }

  /** Where an ID points, or undefined when it was never given out. */
  lookup(id: number): ElementRef | undefined {
    return this.#byId.get(id);
  }
}
