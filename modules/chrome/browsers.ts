/**
 * The chrome module's browsers: which are open and the settings they are launched with (each
 * browser knows its own tabs). One dead browser is noticed when asked for, closed and forgotten.
 *
 * @module
 */
import { ChromeInstance } from "../../internal/modules/mod.ts";

/** A failure a tool reports to the model: a kind, a sentence, and what it was about. */
export class ToolFailure extends Error {
  constructor(readonly type: string, message: string, readonly context: Record<string, unknown>) {
    super(message);
  }
}

/** What browsers are launched with (`headless`, `maxBrowsers`, `chromePath`). */
export interface ChromeSettings {
  headless: boolean;
  maxBrowsers: number;
  chromePath: string | undefined;
}

/** The open browsers, with the settings and log of the module. */
export class ChromeBrowsers {
  readonly #browsers = new Map<string, ChromeInstance>();
  #settings: ChromeSettings = { headless: true, maxBrowsers: 4, chromePath: undefined };
  #log: (message: string) => void = () => {};

  /** Takes the module's settings and log (at `init`). */
  configure(settings: ChromeSettings, log: (message: string) => void): void {
    this.#settings = settings;
    this.#log = log;
  }

  /** The open browsers, in the order they were launched. */
  get all(): ChromeInstance[] {
    return [...this.#browsers.values()];
  }

  /** Launches a browser within the settings' limit; with its first tab's id. */
  async launch(): Promise<{ browser: ChromeInstance; first: string | undefined }> {
    const settings = this.#settings;
    if (this.#browsers.size >= settings.maxBrowsers) {
      throw new ToolFailure(
        "failed",
        `${this.#browsers.size} browsers are open already (the most the settings allow): close one with chrome_close`,
        {},
      );
    }
    const browser = await ChromeInstance.launch({
      headless: settings.headless,
      ...(settings.chromePath ? { chromePath: settings.chromePath } : {}),
      ...(Deno.env.get("PATH") ? { searchPath: Deno.env.get("PATH") } : {}),
    });
    this.#browsers.set(browser.id, browser);
    const [first] = await browser.tabs();
    this.#log(`launched ${browser.id}`);
    return { browser, first: first?.id };
  }

  /** The browser `id`, alive; a dead one is cleaned up and reported. */
  async browserOf(id: string): Promise<ChromeInstance> {
    const browser = this.#browsers.get(id);
    if (!browser) {
      const open = this.#browsers.size
        ? `open ones are ${[...this.#browsers.keys()].join(", ")}`
        : "none is open";
      throw new ToolFailure(
        "not_found",
        `No browser "${id}": ${open}; start one with chrome_launch`,
        { browser: id },
      );
    }
    if (!browser.alive) {
      await this.forget(browser, "its process died");
      throw new ToolFailure(
        "gone",
        `Browser "${id}" is no longer running (its process died): start a new one with chrome_launch`,
        { browser: id },
      );
    }
    return browser;
  }

  /** The browser that holds `tab`, alive (see {@link browserOf}). */
  async tabOwner(tab: string): Promise<ChromeInstance> {
    const owner = this.all.find((browser) => browser.hasTab(tab));
    if (owner) return await this.browserOf(owner.id);
    throw new ToolFailure("not_found", `No tab "${tab}": list the tabs with chrome_list_tabs`, {
      tab,
    });
  }

  /** Closes `tab` in the browser that holds it. */
  async closeTab(tab: string): Promise<void> {
    await (await this.tabOwner(tab)).closeTab(tab);
  }

  /** Closes `browser` and forgets it (and so its tabs), logging `why`. */
  async forget(browser: ChromeInstance, why: string): Promise<void> {
    this.#browsers.delete(browser.id);
    await browser.close();
    this.#log(`closed ${browser.id} (${why})`);
  }
}
