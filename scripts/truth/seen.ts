/// <reference lib="dom" />
/**
 * What a person can see, read in the page's own world apart from the agent's runtime (each
 * export is self-contained: `page.evaluate` serialises it alone).
 *
 * @module
 */

/**
 * Of `texts` (what a report says appeared or now reads), those the page has only where nobody
 * sees them: every element that holds the text is transparent, hidden, of zero size, or covered
 * at its middle (a quarter, half and three quarters across) by an element outside it. A text
 * the page does not hold at all is left out (a false claim, judged elsewhere).
 */
export function unseenTexts(texts: string[]): string[] {
  const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
  const seen = (el: Element, rect: DOMRect): boolean => {
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    if (rect.width < 1 || rect.height < 1) return false;
    const y = rect.top + rect.height / 2;
    // Seen when some of it shows: a quarter, half and three quarters across.
    return [0.25, 0.5, 0.75].some((f) => {
      const x = rect.left + rect.width * f;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return true; // off screen
      const hit = document.elementFromPoint(x, y);
      return hit === null || el.contains(hit) || hit.contains(el);
    });
  };
  const holders = new Map<string, boolean>();
  const wanted = texts.map((t) => [t, norm(t).replace(/…$/, "")] as const).filter(([, n]) => n);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n as HTMLElement;
    // A script's source holds the texts it writes: no one reads it.
    if (/^(script|style|template|noscript)$/.test(el.localName)) continue;
    const own = norm(el.innerText ?? el.textContent ?? "");
    for (const [t, want] of wanted) {
      if (!own.includes(want)) continue;
      // The smallest element holding it decides: its children hold it only in part.
      const inChild = [...el.children].some((c) =>
        norm((c as HTMLElement).innerText ?? c.textContent ?? "").includes(want)
      );
      if (inChild) continue;
      holders.set(t, (holders.get(t) ?? false) || seen(el, el.getBoundingClientRect()));
    }
  }
  return wanted.filter(([t]) => holders.get(t) === false).map(([t]) => t);
}

/**
 * Of the elements with these HTML ids (those of the view's element lines), the ones a person
 * cannot see or hit: transparent, hidden, of zero size, or covered at their centre by another
 * element (when on screen), each with why.
 */
export function hiddenControls(ids: string[]): string[] {
  const out: string[] = [];
  for (const id of ids) {
    const el = document.getElementById(id);
    if (!el) continue;
    const rect = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    let why = "";
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
      why = `opacity ${style.opacity}, visibility ${style.visibility}`;
    } else if (rect.width < 1 || rect.height < 1) why = "zero size";
    else {
      // Covered as a click finds it: no point of five (its centre and four inset ones) that is
      // on screen lands on it (the action pipeline's test; a half-hidden field is no cover).
      const points = [[0.5, 0.5], [0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]]
        .map(([fx, fy]) => [rect.left + rect.width * fx!, rect.top + rect.height * fy!] as const)
        .filter(([x, y]) => x >= 0 && y >= 0 && x < innerWidth && y < innerHeight);
      const hits = points.map(([x, y]) => document.elementFromPoint(x, y));
      const lands = hits.some((hit) => hit && (el.contains(hit) || hit.contains(el)));
      const hit = hits.find((h) => h && !el.contains(h) && !h.contains(el));
      if (points.length > 0 && !lands && hit) {
        why = `covered by <${hit.localName}${hit.id ? `#${hit.id}` : ""}>`;
      }
    }
    if (why) out.push(`#${id}: ${why}`);
  }
  return out;
}

/**
 * For each element path of the settle judge (child indexes from the root element), whether the
 * element is under the mouse or has the focus (`:hover`, `:focus`, `:active`).
 */
export function underPointer(paths: string[]): boolean[] {
  return paths.map((path) => {
    let el: Element | undefined = document.documentElement;
    for (const i of path.split("/")) el = el?.children[Number(i)];
    return el?.matches(":hover, :focus, :active") ?? false;
  });
}
