import type { ReportCollection, ReportPool } from '#shared/reports';

/** Populated records as the records service lists them, with only what a case needs said. */
const SEX = {
  'F-Mixed': { id: 1, name: 'F-Mixed', type: 'female' },
  'F-Gravid': { id: 2, name: 'F-Gravid', type: 'female' },
  Male: { id: 3, name: 'Male', type: 'male' },
  Other: { id: 4, name: 'Other', type: 'other' },
} as const;
export type SexName = keyof typeof SEX;

let nextId = 1;
const species = (display: string | null) => ({
  id: display === null ? 99 : display.length,
  full_name: display ?? 'Unnamed',
  display_name: display,
  type: 'mosquito',
});

export interface CatchRow {
  species: string | null;
  sex?: SexName;
  count: number;
}

export function makeCollection(o: {
  date: string;
  year?: number;
  trap?: string;
  agency?: string;
  nights?: number;
  traps?: number;
  problem?: boolean | null;
  catch?: CatchRow[];
}): ReportCollection {
  return {
    id: nextId++,
    collection_date: `${o.date}T00:00:00.000Z`,
    surv_year: o.year ?? Number(o.date.slice(0, 4)),
    trap: { id: 1, acronym: o.trap ?? 'CO2', name: 'trap' },
    agency: { id: 55, code: o.agency ?? 'SAYO', name: 'district' },
    trap_nights: o.nights ?? 1,
    num_trap: o.traps ?? 1,
    trap_problem_bit: o.problem === undefined ? false : o.problem,
    arthropods: (o.catch ?? []).map((c) => ({
      species: species(c.species),
      sex: SEX[c.sex ?? 'F-Mixed'],
      num_count: c.count,
    })),
  } as ReportCollection;
}

export type Result = 'Confirmed' | 'Negative' | 'Pending';

export function makePool(o: {
  date: string;
  year?: number;
  count: number;
  species?: string;
  sex?: SexName;
  trap?: string;
  tests: (Result | [Result, string])[];
}): ReportPool {
  return {
    id: nextId++,
    num_count: o.count,
    collection_date: `${o.date}T00:00:00.000Z`,
    surv_year: o.year ?? Number(o.date.slice(0, 4)),
    species: species(o.species ?? 'Cx tarsalis'),
    sex: SEX[o.sex ?? 'F-Mixed'],
    trap: { id: 1, acronym: o.trap ?? 'CO2', name: 'trap' },
    agency: { id: 55, code: 'SAYO', name: 'district' },
    test: o.tests.map((t) => {
      const [status, target] = Array.isArray(t) ? t : [t, 'WNV'];
      return {
        id: nextId++,
        test_date: `${o.date}T00:00:00.000Z`,
        method: 1,
        target: { id: 1, acronym: target, name: target },
        status: { id: 1, name: status },
      };
    }),
  } as ReportPool;
}
