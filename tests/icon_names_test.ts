import assert from "node:assert/strict";
import {
  glyphName,
  markedName,
  weakName,
  wordsOf,
} from "../internal/browser/page/observe/icon_names.ts";
import {
  ALIASES,
  ATTRIBUTES,
  CONTROL_WORDS,
  GLYPHS,
  MARKS,
  NOISE,
} from "../internal/browser/page/observe/icon_table.ts";

Deno.test("markedName() gives every icon mark's example its name", () => {
  for (const row of MARKS) {
    assert.ok(row.mark.test(row.example), `${row.mark} does not mark its example`);
    assert.equal(markedName(row.example), row.gives, `${row.example} (${row.reason})`);
  }
});

Deno.test("markedName() names nothing from a class without an icon mark", () => {
  for (const token of ["header", "card-title", "css-1x9k2q", "sc-AxjAm", "flex", "p-2"]) {
    assert.equal(markedName(token), "", token);
  }
});

Deno.test("wordsOf() drops every noise word, digits, lone letters and generated parts", () => {
  for (const row of NOISE) {
    for (const word of row.words.split(" ")) {
      assert.deepEqual(wordsOf(word), [], `${word} (${row.reason})`);
    }
    for (const word of row.words.split(" ")) {
      assert.deepEqual(wordsOf(`${word}-send`), ["send"], `${word}-send (${row.reason})`);
    }
  }
  assert.deepEqual(wordsOf("ember123"), ["ember"]);
  assert.deepEqual(wordsOf("1x9k2q"), []);
  assert.deepEqual(wordsOf("wds-icons-magnifying-glass"), ["search"]);
  assert.deepEqual(wordsOf("btnRefresh"), ["refresh"]);
  assert.deepEqual(wordsOf("CoreArrowLeft"), ["arrow", "left"]);
});

Deno.test("wordsOf() turns every alias into the name a person uses", () => {
  for (const row of ALIASES) {
    assert.deepEqual(wordsOf(row.words.replaceAll(" ", "-")), [row.name], row.reason);
  }
});

Deno.test("weakName() keeps an id, name or plain class only when a word names what a control does", () => {
  for (const row of CONTROL_WORDS) {
    for (const word of row.words.split(" ")) {
      if (wordsOf(word).length === 0) continue; // an alias's source word (x, times) is renamed
      assert.notEqual(weakName(`js-${word}`), "", `${word} (${row.reason})`);
    }
  }
  assert.equal(weakName("ctl00_ContentPlaceHolder_dropDownAbility1"), "");
  assert.equal(weakName("prio-0"), "");
  assert.equal(weakName("txtPokemonNameSearch"), "pokemon name search");
  assert.equal(weakName("flatpickr-prev-month"), "flatpickr prev month");
  assert.ok(ATTRIBUTES.some((a) => a.weak && a.name === "id"), "ids are weak sources");
});

Deno.test("glyphName() names every glyph of the table and nothing else", () => {
  for (const row of GLYPHS) {
    for (const g of row.glyphs) assert.equal(glyphName(g), row.name, `${g} (${row.reason})`);
  }
  assert.equal(glyphName("❤️"), "heart");
  for (const text of ["", "ab", "★★", "Q", "\uf005"]) assert.equal(glyphName(text), "", text);
});
