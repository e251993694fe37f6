/// <reference lib="dom" />
/**
 * Text blocks as a person names them: the paragraph, heading, list item, code block or table
 * cell a run of text is (`find(role=paragraph)`), each a row of {@link BLOCK_ROLES} with its
 * reason. find gives each text it lists the ID of its block, which `select_text`, `drag` and
 * `click` take.
 *
 * @module
 */
import { clean } from "../../../shared/text.ts";

/** The role of a block by its tag, in the order the rows are asked. */
export const BLOCK_ROLES: readonly { tags: string; role: string; reason: string }[] = [
  { tags: "p", role: "paragraph", reason: "a paragraph of the page's text" },
  { tags: "h1 h2 h3 h4 h5 h6", role: "heading", reason: "a heading" },
  { tags: "li dt dd", role: "listitem", reason: "an item of a list (or of a definition list)" },
  { tags: "pre code", role: "code", reason: "a code block, drawn as the author typed it" },
  { tags: "td th", role: "cell", reason: "a cell of a table, read on its own" },
  { tags: "tr", role: "row", reason: "a table row: its cells are read as one line" },
  { tags: "blockquote", role: "blockquote", reason: "a quotation set apart" },
  { tags: "figcaption caption", role: "caption", reason: "the caption of a figure or a table" },
];

const byTag = new Map<string, string>();
for (const row of BLOCK_ROLES) for (const tag of row.tags.split(" ")) byTag.set(tag, row.role);

/** The roles of {@link BLOCK_ROLES} and "paragraph": find(role) with one of them lists text. */
export const TEXT_ROLES: ReadonlySet<string> = new Set(BLOCK_ROLES.map((r) => r.role));

/** Running text this long, with a sentence's end, reads as a paragraph whatever its tag. */
const PARAGRAPH_CHARS = 60;

/**
 * The role of the block `el` whose text is `text`: its explicit role, else the row of its tag,
 * else "paragraph" for running text in a plain box (a `<div>` of sentences), else "generic".
 *
 * @example
 * ```ts
 * blockRole(p, "The capital of Australia is Canberra."); // "paragraph"
 * ```
 */
export function blockRole(el: Element, text: string): string {
  const explicit = el.getAttribute("role");
  if (explicit) return explicit.split(" ")[0]!;
  const tag = byTag.get(el.localName);
  if (tag) return tag;
  const t = clean(text);
  return t.length >= PARAGRAPH_CHARS && /[.!?]( |$)/.test(t) ? "paragraph" : "generic";
}
