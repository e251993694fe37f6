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
