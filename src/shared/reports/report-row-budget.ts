/**
 * A report's row budget: the most rows one request may make the server build. Without it the
 * rows are groups × requested species, and a request naming many species over many groups
 * (issue 36 N1: 440,600 rows for 100 names, a heap exhausted for 1,270) costs the server what
 * the requester chooses. The figure is checked before the rows are built, from the groups
 * alone, so a refused report costs no more than its grouping.
 */
export class ReportRowBudgetExceeded extends Error {
  constructor(
    /** Rows the report would have had. */
    readonly rows: number,
    readonly budget: number,
  ) {
    super(`The report would have ${rows} rows, more than its budget of ${budget}`);
    this.name = 'ReportRowBudgetExceeded';
  }
}

/** Throws ReportRowBudgetExceeded when `rows` is over `budget` (no budget: no limit). */
export function checkRowBudget(rows: number, budget: number | undefined): void {
  if (budget !== undefined && rows > budget) throw new ReportRowBudgetExceeded(rows, budget);
}
