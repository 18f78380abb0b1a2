/**
 * Surveillance reports (spec: shared/spec/surveillance-calculations.md), the same numbers as
 * vectorsurvR 1.6.3 on the same data. Pure: no I/O, no clock; the BFF and the app call the same
 * functions.
 *
 * Inputs are the records service's lists, populated:
 * - collections from `GET /v1/arthropod/collection?populate[]=arthropods&populate[]=trap&
 *   populate[]=agency` (`ReportCollection`, schema `reportCollection`);
 * - pools from `GET /v1/arthropod/pool?populate[]=test&populate[]=status&populate[]=species&
 *   populate[]=sex&populate[]=trap&populate[]=agency` (`ReportPool`, schema `reportPool`).
 * Parameters carry vectorsurvR's argument names (`report-params.ts`) and are taken as valid:
 * the BFF answers 422 for bad ones and supplies `year` (default: the current surv_year).
 *
 * Each report returns `{ columns, rows }`: the columns in the spec's order (Year, the interval
 * named after itself, the separated labels Species, Trap, Agency, then the figures) and the rows,
 * sorted by Year, interval, then labels, each row's keys in column order, missing figures null.
 * A CSV is `columns` as the header and each row's values in that order.
 *
 *   abundanceReport(collections, { interval: 'Week', year: [2026], separate_by: ['species'] })
 *   abundanceAnomalyReport(collections, { target_year: 2026, interval: 'Biweek' })
 *   infectionRateReport(pools, { year: [2026], target_disease: 'WNV', pt_estimate: 'bc-mle' })
 *   vectorIndexReport(collections, pools, { year: [2026], separate_by: ['species'] })
 */
export { abundanceReport } from './abundance';
export { abundanceAnomalyReport } from './abundance-anomaly';
export { infectionRateReport } from './infection-rate';
export { vectorIndexReport } from './vector-index';
export { bcMle, mir, mle, PT_ESTIMATES, Z_95 } from './pooled-estimate';
export type { PtEstimate } from './pooled-estimate';
export { mmwrWeek } from './mmwr-week';
export { intervalOf } from './interval-of';
export { rRound } from './r-round';
export { reportCollection } from './report-collection';
export type { ReportCollection } from './report-collection';
export { reportPool } from './report-pool';
export type { ReportPool } from './report-pool';
export { ReportRowBudgetExceeded } from './report-row-budget';
export { INTERVALS, SEPARATE_BY, SEX_FILTERS, TARGET_DISEASES } from './report-params';
export type * from './report-params';
export type { ReportProblem } from './report-problems';
