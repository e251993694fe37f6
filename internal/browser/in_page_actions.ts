/// <reference lib="dom" />
/**
 * In-page helpers for actions and settling, run in puppeteer's isolated world. Each function is
 * serialised on its own: it must not use anything from outside its own body.
 *
 * @module
 */

/** Waits until the document has loaded and the DOM stayed unchanged for `quietMs`, or `capMs` passed. */
export function waitForDomQuiet(quietMs: number, capMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (quiet: boolean) => {
      observer.disconnect();
      clearTimeout(timer);
      clearTimeout(cap);
      resolve(quiet);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (document.readyState === "loading") arm();
        else done(true);
      }, quietMs);
    };
    const observer = new MutationObserver(arm);
    observer.observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    const cap = setTimeout(() => done(false), capMs);
    arm();
  });
}

/** Scrolls the page by a share of the viewport; returns how far it moved and what is left. */
export function scrollPage(screens: number): { moved: number; left: number } {
  const el = document.scrollingElement ?? document.documentElement;
  const before = el.scrollTop;
  el.scrollBy({ top: innerHeight * screens, behavior: "instant" });
  const moved = el.scrollTop - before;
  const left = screens > 0 ? el.scrollHeight - el.clientHeight - el.scrollTop : el.scrollTop;
  return { moved, left };
}

/** Focuses a field and selects its contents, as a user's click + select-all would; true when it had any. */
export function selectFieldContents(el: Element): boolean {
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    el.focus();
    el.select();
    return el.value.length > 0;
  }
  if (el instanceof HTMLElement && el.isContentEditable) {
    el.focus();
    const range = document.createRange();
    range.selectNodeContents(el);
    const sel = getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
    return (el.textContent ?? "").length > 0;
  }
  return false;
}
