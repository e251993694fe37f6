/**
 * The document changed while it was asked (a navigation, a page still loading, a document that
 * replaced the one the runtime was installed in): a new observation gets past it.
 *
 * @example
 * ```ts
 * throw new PageChangedError("The page is loading: observe again");
 * ```
 */
export class PageChangedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PageChangedError";
  }
}

/**
 * True for the errors of a document replaced while it was asked (a navigation, or the page still
 * loading after a retry), which a new observation gets past; false for a closed browser or tab.
 */
export function isNavigationError(error: unknown): boolean {
  if (error instanceof PageChangedError) return true;
  // puppeteer's own errors for a context that went away (its messages are all it gives).
  const message = error instanceof Error ? error.message : String(error);
  return /Execution context was destroyed|Cannot find context with specified id|Execution context is not available|detached Frame|frame (got|was) detached|Inspected target navigated/i
    .test(message);
}
