/**
 * The rows of the settle benchmark: the cases of the one settle table
 * (`tests/support/settle_cases/`) that have a bench row, each one action timed and judged
 * several times. Fixture rows (the benchmark's first cases), navigations to the saved real
 * pages, generated pages (`tests/fixtures/settle/`) and the false reports issue 24 lists, in
 * that order.
 *
 * @module
 */
import {
  type Act,
  type BenchRow,
  type CaseContext,
  realCases,
  SETTLE_CASES,
} from "../../tests/support/settle_cases/mod.ts";

/** What a row's steps run with. */
export type RowContext = CaseContext;

/** One benchmark row: a settle case's page, action and bench row. */
export interface Row extends BenchRow {
  label: string;
  page?: string;
  act: Act;
}

const GROUPS: readonly BenchRow["group"][] = [
  "fixture",
  "real pages",
  "generated",
  "false reports",
];

/** The rows, group by group, with the saved real pages `realPages`. */
export function benchRows(realPages: readonly string[]): Row[] {
  const rows: Row[] = [];
  for (const c of [...SETTLE_CASES, ...realCases(realPages)]) {
    if (!c.bench) continue;
    rows.push({ label: c.name, ...(c.page ? { page: c.page } : {}), act: c.act, ...c.bench });
  }
  return rows.sort((a, b) => GROUPS.indexOf(a.group) - GROUPS.indexOf(b.group));
}
