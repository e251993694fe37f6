/// <reference lib="dom" />
/**
 * Style rules changed through the CSSOM restyle a page without a DOM mutation: a rule inserted
 * or deleted (`insertRule`, `deleteRule`), a constructed sheet's rules replaced (`replaceSync`,
 * `replace`), sheets adopted or let go (`adoptedStyleSheets`), a sheet disabled. The walk cache
 * (`walk_cache.ts`) takes a print of the style sheets at each walk, and trusts nothing it recorded
 * when the print changed. The print is a few numbers per sheet (which sheet, disabled or not, its
 * number of rules, its first and last rule), cheap on a page of thousands of rules.
 *
 * Known limit: a declaration changed inside a rule that stays (`rule.style.display = "none"`),
 * and a rule inserted inside an `@media` or `@supports` block, are seen when the elements they
 * restyle change.
 *
 * @module
 */

/** Numbers for sheets and rules, to tell one from another between walks. */
const ids = new WeakMap<object, number>();
let next = 1;

function idOf(o: object | undefined): number {
  if (!o) return 0;
  let id = ids.get(o);
  if (id === undefined) ids.set(o, id = next++);
  return id;
}

/** The style sheets of the document and of the shadow roots the walk entered. */
export class SheetPrint {
  readonly #roots: WeakRef<ShadowRoot>[] = [];
  #last: number[] | null = null;

  /** Watches the sheets of an open shadow root too. */
  watch(root: ShadowRoot): void {
    this.#roots.push(new WeakRef(root));
  }

  /** Whether the sheets changed since the last call (false on the first). */
  changed(): boolean {
    const print = this.#print();
    const last = this.#last;
    this.#last = print;
    if (!last) return false;
    return last.length !== print.length || print.some((n, i) => n !== last[i]);
  }

  #print(): number[] {
    const out: number[] = [];
    const roots: (Document | ShadowRoot)[] = [document];
    for (let i = 0; i < this.#roots.length; i++) {
      const root = this.#roots[i]!.deref();
      if (root) roots.push(root);
      else this.#roots.splice(i--, 1); // gone with its host
    }
    for (const root of roots) {
      for (const sheet of root.styleSheets) printSheet(sheet, out);
      for (const sheet of root.adoptedStyleSheets) printSheet(sheet, out);
    }
    return out;
  }
}

/**
 * Appends a sheet's print to `out`: which sheet, whether disabled, its rules' count, its first and
 * last rule (another origin's sheet is printed without rules).
 */
export function printSheet(sheet: CSSStyleSheet, out: number[]): void {
  let rules: CSSRuleList | undefined;
  try {
    rules = sheet.cssRules;
  } catch {
    // A sheet from another origin: its rules can be neither read nor changed by the page.
  }
  const n = rules?.length ?? -1;
  out.push(idOf(sheet), sheet.disabled ? 1 : 0, n, idOf(rules?.[0]), idOf(rules?.[n - 1]));
}
