import type { LookupsDocument } from '../../src/shared';

/** A lookups document like the seeded one (contract §5), small enough to read. */
export const LOOKUPS: LookupsDocument = {
  fetched_at: '2026-07-14T00:00:00.000Z',
  species: [
    { id: 1, full_name: 'Culex tarsalis', display_name: 'Cx tarsalis', type: 'mosquito' },
    { id: 2, full_name: 'Culex pipiens', display_name: 'Cx pipiens', type: 'mosquito' },
    {
      id: 3,
      full_name: 'Culex quinquefasciatus',
      display_name: 'Cx quinquefasciatus',
      type: 'mosquito',
    },
    { id: 4, full_name: 'Aedes aegypti', display_name: 'Ae aegypti', type: 'mosquito' },
  ],
  sex: [
    { id: 1, name: 'female', type: 'female' },
    { id: 2, name: 'male', type: 'male' },
    { id: 3, name: 'other', type: 'other' },
    { id: 4, name: 'F-Mixed', type: 'female' },
    { id: 5, name: 'F-Unfed', type: 'female' },
    { id: 6, name: 'F-Bloodfed', type: 'female' },
    { id: 7, name: 'F-Gravid', type: 'female' },
  ],
  trap: [
    { id: 1, acronym: 'GRVD', name: 'Gravid trap', presence: false },
    { id: 2, acronym: 'CO2', name: 'CO2 trap', presence: false },
  ],
  lure: [{ id: 1, code: 'CO2', description: 'Dry ice', weight: 1 }],
  coordinate_precision: [
    { id: 1, name: 'GPS (< 10 m)', meters: 10 },
    { id: 2, name: 'Address (< 100 m)', meters: 100 },
    { id: 3, name: 'County centroid', meters: 50000 },
  ],
  land_usage: [
    { id: 1, name: 'Residential' },
    { id: 2, name: 'Agricultural' },
  ],
  region: [{ id: 1, name: 'California', type: 'state', geoid: '06', parent: null }],
  agency: [
    { id: 1, code: 'DVCD', name: 'Demo Vector Control District', state_acronym: 'CA' },
    { id: 2, code: 'NMAD', name: 'Neighbor Mosquito Abatement District', state_acronym: 'CA' },
  ],
  test_method: [
    { id: 1, name: 'RT-PCR', acronym: 'RT-PCR', sensitivity: 3 },
    { id: 2, name: 'VecTest', acronym: 'VecTest', sensitivity: 1 },
  ],
  test_target: [
    { id: 1, acronym: 'WNV', name: 'West Nile virus' },
    { id: 2, acronym: 'SLEV', name: 'St. Louis encephalitis virus' },
  ],
  test_status: [
    { id: 1, name: 'Confirmed' },
    { id: 2, name: 'Negative' },
  ],
};
