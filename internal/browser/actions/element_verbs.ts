/**
 * The verbs a person has on one element, as a browser session runs them: each resolves the ID,
 * runs as an action (`runAction`: settle, report) and reaches the element through the one action
 * pipeline (`perform`). `BrowserSession` forwards its element verbs here.
 *
 * @module
 */
import type { ElementHandle, Page } from "puppeteer-core";
import { ActionError, type ActionOutcome, type PictureGeometry } from "../../entity/mod.ts";
import { type ActionEnv, type ActOptions, runAction } from "./action_runner.ts";
import { clickElement, hoverElement, selectText } from "./pointer_verbs.ts";
import { dragElement, type DropAt } from "./drag_action.ts";
import { perform, type Target } from "./pipeline.ts";
import { receiverId, screenTarget, textTarget, windowOf } from "./named_targets.ts";
import type { Did } from "./action_runner.ts";
import { onElement } from "../runtime/page_runtime.ts";
import type { PointerEnv } from "./actionability.ts";
import { press, selectOption, typeFocused, typeInto, uploadFile } from "./element_actions.ts";
import { scrollAround, type ScrollDirection, scrollPage } from "./page_steps.ts";
import type { PromptAnswer } from "../dialogs/dialog_answers.ts";

/** How `BrowserPort.click` presses: which button, how many times, or by script (`force`). */
export interface ClickOptions extends ActOptions {
  double?: boolean;
  button?: "left" | "right";
  /** A script click without the checks before acting: only when the model asks for it. */
  force?: boolean;
  /** A point inside the element to press at (0 to 1 of its size, or px from its top-left). */
  at?: BoxPoint;
}

/** A point inside an element: each coordinate from 0 to 1 a share of its size, else px from its top-left. */
export interface BoxPoint {
  x: number;
  y: number;
}

/**
 * Where `BrowserPort.drag` drops: an element's ID or a text the page shows, and/or pixels; what
 * it picks up: the element, at a point inside it (`at`), or the block that shows `from`.
 */
export interface DragOptions extends ActOptions {
  to?: number | string;
  dx?: number;
  dy?: number;
  at?: BoxPoint;
  from?: string;
}

/** An action at a point of the numbered screenshot (its pixels), as `BrowserPort.atPoint` does it. */
export type ScreenAction =
  | { verb: "click"; x: number; y: number; double?: boolean; button?: "left" | "right" }
  | { verb: "hover"; x: number; y: number }
  | { verb: "drag"; x: number; y: number; toX: number; toY: number };

/** Options of `BrowserPort.type`. */
export interface TypeOptions extends ActOptions {
  /** Replace the field's text (default) or add to its end. */
  clear?: boolean;
  /** Type key by key whatever the length (the recovery ladder's other way of input). */
  keyByKey?: boolean;
}

/** What the verbs need of the session. */
export interface VerbHost {
  /** What every action runs with, now. */
  env(): ActionEnv;
  /** The element behind an ID, in the current tab; throws `unknown_element`, `gone`, `wrong_tab`. */
  element(id: number): Promise<ElementHandle<Element>>;
  /** What the checks before acting run with (see `untilReady`). */
  pointer(options: ActOptions): PointerEnv;
  /** Whether the current tab holds a `prompt()` open for an answer. */
  holdsPrompt(): boolean;
  /** Answers that prompt. */
  answerDialog(answer: PromptAnswer, options: ActOptions): Promise<ActionOutcome>;
  /** Where the numbered screenshot the model saw last shows the page, once there was one. */
  picture(): PictureGeometry | undefined;
}

/** `target`, at the point inside it the model gave, if any. */
function at(target: Target, point: BoxPoint | undefined): Target {
  return point ? { ...target, at: { x: point.x, y: point.y } } : target;
}

/** The keys that answer a held `prompt()` as they do a person's: OK with its text, or Cancel. */
const PROMPT_KEYS: Readonly<Record<string, PromptAnswer>> = Object.freeze({
  Enter: {},
  Escape: { dismiss: true },
});

/**
 * The element verbs of one session.
 *
 * @example
 * ```ts
 * const verbs = new ElementVerbs(host);
 * await verbs.click(5, { double: true });
 * ```
 */
export class ElementVerbs {
  readonly #host: VerbHost;

  constructor(host: VerbHost) {
    this.#host = host;
  }

  /** Runs an action on element `[id]` (see {@link runAction}), disposing of its handle after. */
  async #onElement(
    id: number,
    options: ActOptions,
    act: (page: Page, el: ElementHandle<Element>) => ReturnType<Parameters<typeof runAction>[2]>,
    scroll = false,
  ): Promise<ActionOutcome> {
    const el = await this.#host.element(id);
    try {
      return await runAction(
        this.#host.env(),
        { ...options, target: { el, id }, scroll },
        (p) => act(p, el),
      );
    } finally {
      // An action a prompt stopped keeps its element for the report after the answer.
      if (!this.#host.holdsPrompt()) {
        await el.dispose().catch(() => {/* its document is gone */});
      }
    }
  }

  /**
   * Clicks `[id]` with real mouse events (see {@link clickElement}): once, twice (`double`),
   * with the right button, at a point inside it (`at`), or by script when `force` asks for it.
   */
  click(id: number, options: ClickOptions = {}): Promise<ActionOutcome> {
    return this.#onElement(
      id,
      options,
      (page, el) =>
        clickElement(page, at({ el, id }, options.at), this.#host.pointer(options), options),
    );
  }

  /** Rests the pointer on `[id]`, or on a point inside it (see {@link hoverElement}). */
  hover(id: number, options: ActOptions & { at?: BoxPoint } = {}): Promise<ActionOutcome> {
    return this.#onElement(
      id,
      options,
      (page, el) => hoverElement(page, at({ el, id }, options.at), this.#host.pointer(options)),
    );
  }

  /**
   * Drags `[id]` (pressed at a point inside it with `at`), or the block that shows `from`, onto
   * the element `to` (an ID), onto a text the page shows, and/or by pixels (see
   * {@link dragElement}).
   */
  drag(id: number | undefined, options: DragOptions): Promise<ActionOutcome> {
    if (id !== undefined) {
      return this.#onElement(
        id,
        options,
        (page, el) => this.#drag(page, at({ el, id }, options.at), options),
      );
    }
    const from = options.from ?? "";
    return this.#onText(from, "drag", options, (page, source) => this.#drag(page, source, options));
  }

  /** Drags `source` where `options` say, the element `to` looked up by its ID. */
  async #drag(page: Page, source: Target, options: DragOptions): ReturnType<typeof dragElement> {
    const { to, dx, dy } = options;
    const onto = typeof to === "number" ? await this.#host.element(to) : undefined;
    try {
      const drop: DropAt = {
        ...(dx !== undefined ? { dx } : {}),
        ...(dy !== undefined ? { dy } : {}),
      };
      if (onto) drop.target = { el: onto, id: to as number };
      else if (typeof to === "string") drop.text = to;
      return await dragElement(page, source, drop, this.#host.pointer(options));
    } finally {
      await onto?.dispose().catch(() => {/* its document is gone */});
    }
  }

  /**
   * Selects the first occurrence of `text` inside `[id]`, or with no ID in the block that shows
   * it (see {@link selectText}).
   */
  selectText(
    id: number | undefined,
    text: string,
    options: ActOptions = {},
  ): Promise<ActionOutcome> {
    const pointer = this.#host.pointer(options);
    if (id === undefined) {
      return this.#onText(text, "select", options, (page, t) => selectText(page, t, text, pointer));
    }
    return this.#onElement(id, options, (page, el) => selectText(page, { el, id }, text, pointer));
  }

  /** Runs an action on the block that shows `text` (see {@link textTarget}). */
  #onText(
    text: string,
    doing: string,
    options: ActOptions,
    act: (page: Page, target: Target) => Promise<Did>,
  ): Promise<ActionOutcome> {
    return runAction(this.#host.env(), options, async (page) => {
      const target = await textTarget(page, text, doing);
      try {
        return await act(page, target);
      } finally {
        await target.el.dispose().catch(() => {/* its document is gone */});
      }
    });
  }

  /**
   * Acts at a point of the numbered screenshot (see {@link ScreenAction}): what is drawn there is
   * the target, checked as any other (covered, disabled, moving); the outcome names what the
   * press reached (`at`).
   */
  atPoint(action: ScreenAction, options: ActOptions = {}): Promise<ActionOutcome> {
    const pointer = this.#host.pointer(options);
    return runAction(this.#host.env(), options, async (page) => {
      const target = await screenTarget(page, action.x, action.y, this.#host.picture());
      if (!target) {
        throw new ActionError(
          "invalid_args",
          `Cannot ${action.verb} at (${action.x}, ${action.y}): the point is outside the window; give a point of the screenshot`,
        );
      }
      try {
        if (action.verb === "hover") return await hoverElement(page, target, pointer);
        if (action.verb === "click") return await clickElement(page, target, pointer, action);
        const point = await windowOf(page, action.toX, action.toY, this.#host.picture());
        return await dragElement(page, target, { point }, pointer);
      } finally {
        await target.el.dispose().catch(() => {/* its document is gone */});
      }
    });
  }

  /**
   * What a point of the numbered screenshot shows, without acting: described, with the ID of
   * it or its nearest numbered ancestor; undefined outside the window.
   */
  async whatIsAt(x: number, y: number): Promise<{ what: string; id?: number } | undefined> {
    const env = this.#host.env();
    const page = env.tabs.current;
    return await env.guard(page, async () => {
      const target = await screenTarget(page, x, y, this.#host.picture());
      if (!target) return undefined;
      try {
        const seen = await onElement(target.el, "described");
        const id = receiverId(seen, this.#host.pointer({}));
        return id === undefined ? { what: seen.what } : { what: seen.what, id };
      } finally {
        await target.el.dispose().catch(() => {/* its document is gone */});
      }
    });
  }

  /**
   * Types into `[id]`, replacing its text unless `clear` is false (see {@link typeInto}); with
   * no ID, where the focus is, the page itself included (see {@link typeFocused}).
   */
  type(
    id: number | undefined,
    text: string,
    pressEnter = false,
    options: TypeOptions = {},
  ): Promise<ActionOutcome> {
    const how = { clear: options.clear ?? true, pressEnter, keyByKey: options.keyByKey ?? false };
    // A prompt the page holds open has the focus: its field takes the text, as a person's would.
    if (id === undefined && this.#host.holdsPrompt()) {
      return this.#host.answerDialog({ text }, options);
    }
    if (id === undefined) {
      return runAction(this.#host.env(), options, (p) => typeFocused(p, text, how));
    }
    return this.#onElement(
      id,
      options,
      (page, el) => typeInto(page, { el, id }, text, how, this.#host.pointer(options)),
    );
  }

  /** Chooses an option of a native or custom select by its text or value (see {@link selectOption}). */
  select(id: number, option: string, options: ActOptions = {}): Promise<ActionOutcome> {
    return this.#onElement(
      id,
      options,
      (page, el) => selectOption(page, { el, id }, option, this.#host.pointer(options)),
    );
  }

  /** Puts a local file into a file input, or the file chooser `[id]` opens (see {@link uploadFile}). */
  upload(id: number, path: string, options: ActOptions = {}): Promise<ActionOutcome> {
    return this.#onElement(
      id,
      options,
      (page, el) => uploadFile(page, { el, id }, path, this.#host.pointer(options)),
    );
  }

  /**
   * Presses a key or a combination such as `Control+A` on the focused element, or on `[id]`
   * once it passed the checks and took the focus.
   */
  press(spec: string, options: ActOptions & { id?: number } = {}): Promise<ActionOutcome> {
    const pressed = (page: Page) => press(page, spec);
    const key = PROMPT_KEYS[spec];
    if (options.id === undefined && key && this.#host.holdsPrompt()) {
      return this.#host.answerDialog(key, options);
    }
    if (options.id === undefined) return runAction(this.#host.env(), options, pressed);
    const id = options.id;
    return this.#onElement(
      id,
      options,
      (page, el) =>
        perform(page, { el, id }, "press a key on", this.#host.pointer(options), async () => {
          await el.focus();
          // Keys go where the focus is: an element that cannot take it would send them elsewhere.
          if (!await onElement(el, "holdsFocus")) {
            throw new ActionError(
              "no_effect",
              `Cannot press a key on [${id}]: it cannot take the keyboard focus; click it instead, or press the key where the focus is`,
            );
          }
          const done = await pressed(page);
          return { ...done, did: `Focused [${id}]. ${done.did}` };
        }),
    );
  }

  /** A screen up, down, left or right (the page, or around `[id]`), or `[id]` into view. */
  async scroll(
    direction: ScrollDirection | undefined,
    id?: number,
    options: ActOptions = {},
  ): Promise<ActionOutcome> {
    if (id === undefined) return await scrollPage(this.#host.env(), direction ?? "down", options);
    return await this.#onElement(
      id,
      options,
      (page, el) => scrollAround(page, { el, id }, direction, this.#host.pointer(options)),
      true,
    );
  }
}
