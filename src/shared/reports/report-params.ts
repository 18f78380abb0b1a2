import type { PtEstimate } from './pooled-estimate';

/** vectorsurvR's argument names and values (spec "Where it runs and how it is asked for"). */
export const INTERVALS = ['Week', 'Biweek', 'Month', 'CollectionDate'] as const;
export type Interval = (typeof INTERVALS)[number];
export const SEPARATE_BY = ['species', 'trap', 'agency'] as const;
export type SeparateBy = (typeof SEPARATE_BY)[number];
export const SEX_FILTERS = ['female', 'male', 'other', 'all'] as const;
export type SexFilter = (typeof SEX_FILTERS)[number];
/** vectorsurvR accepts only these targets; the BFF answers 422 for any other. */
export const TARGET_DISEASES = ['WNV', 'SLEV', 'WEEV'] as const;
export type TargetDisease = (typeof TARGET_DISEASES)[number];

/**
 * Filters every report takes. An omitted list means no filter (vectorsurvR's NULL: every value
 * in the data). The module takes parameters as already validated; the BFF answers 422 for bad
 * ones and fills `year` with the current surv_year when none is asked for (this module has no
 * clock). `year` is applied first, as fetching `surv_year $between` does for vectorsurvR.
 */
export interface FilterParams {
  interval?: Interval; // default Week
  year?: readonly number[];
  agency?: readonly string[]; // agency codes
  species?: readonly string[]; // species display names
  trap?: readonly string[]; // trap acronyms
  sex?: SexFilter; // default female (vector index: all)
  separate_by?: readonly SeparateBy[];
  /**
   * Trapline's, not vectorsurvR's: the most rows the report may have (report-row-budget.ts);
   * beyond it the report throws ReportRowBudgetExceeded before building them. None: no limit.
   */
  rowBudget?: number;
}

export interface AbundanceParams extends FilterParams {
  trapnight_min?: number; // default 1
  trapnight_max?: number; // default: no upper bound (vectorsurvR: the data's maximum)
}

export interface AbundanceAnomalyParams extends Omit<AbundanceParams, 'year'> {
  target_year: number;
}

export interface InfectionRateParams extends FilterParams {
  target_disease?: TargetDisease; // default WNV
  pt_estimate?: PtEstimate; // default bc-mle
  scale?: number; // default 1000
}

export interface VectorIndexParams extends AbundanceParams, InfectionRateParams {}

export type Cell = string | number | null;

/** A report: its columns in the spec's order and its rows (each row's keys in that order). */
export interface Report<Row extends Record<string, Cell> = Record<string, Cell>> {
  columns: string[];
  rows: Row[];
}

export type Labels = { Species?: string | null; Trap?: string | null; Agency?: string | null };
/** Year, the interval column (named after the interval) and the separated labels. */
export type GroupCells = { Year: number | null } & Labels & Record<string, Cell>;

export type AbundanceRow = GroupCells & { Count: number; TrapEvents: number; Abundance: number };
export type AbundanceAnomalyRow = AbundanceRow & {
  FiveYearAvg: number | null;
  YearsInAverage: string | null;
  Delta: number | null;
};
export type InfectionRateRow = GroupCells & {
  InfectionRate: number | null;
  LowerCI: number | null;
  UpperCI: number | null;
};
export type VectorIndexFigures = {
  Count: number | null;
  TrapEvents: number | null;
  Abundance: number | null;
  InfectionRate: number | null;
  LowerCI: number | null;
  UpperCI: number | null;
  VectorIndex: number | null;
  CDCVectorIndex?: number | null;
};
export type VectorIndexRow = GroupCells & VectorIndexFigures;
