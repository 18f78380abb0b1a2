/**
 * Lookup values seeded into a new database (contract §5). Real names as California agencies use
 * them; ids are fixed so a lookup catalog file and the demo data can name them.
 */

export const REGIONS = [
  { id: 1, name: 'California', namelsad: 'California', type: 'state', geoid: '06', parent: null },
  {
    id: 2,
    name: 'Sacramento',
    namelsad: 'Sacramento County',
    type: 'county',
    geoid: '06067',
    parent: 1,
  },
  { id: 3, name: 'Yolo', namelsad: 'Yolo County', type: 'county', geoid: '06113', parent: 1 },
  { id: 4, name: 'Placer', namelsad: 'Placer County', type: 'county', geoid: '06061', parent: 1 },
  {
    id: 5,
    name: 'El Dorado',
    namelsad: 'El Dorado County',
    type: 'county',
    geoid: '06017',
    parent: 1,
  },
  { id: 6, name: 'Sutter', namelsad: 'Sutter County', type: 'county', geoid: '06101', parent: 1 },
  { id: 7, name: 'Solano', namelsad: 'Solano County', type: 'county', geoid: '06095', parent: 1 },
  {
    id: 8,
    name: 'San Joaquin',
    namelsad: 'San Joaquin County',
    type: 'county',
    geoid: '06077',
    parent: 1,
  },
];
export const REGION = { california: 1, sacramento: 2, yolo: 3, placer: 4, elDorado: 5 } as const;

export const SPECIES = [
  { id: 1, full_name: 'Culex tarsalis', display_name: 'Cx tarsalis', type: 'mosquito' },
  { id: 2, full_name: 'Culex pipiens', display_name: 'Cx pipiens', type: 'mosquito' },
  {
    id: 3,
    full_name: 'Culex quinquefasciatus',
    display_name: 'Cx quinquefasciatus',
    type: 'mosquito',
  },
  { id: 4, full_name: 'Culex erythrothorax', display_name: 'Cx erythrothorax', type: 'mosquito' },
  { id: 5, full_name: 'Culiseta inornata', display_name: 'Cs inornata', type: 'mosquito' },
  { id: 6, full_name: 'Culiseta incidens', display_name: 'Cs incidens', type: 'mosquito' },
  { id: 7, full_name: 'Aedes aegypti', display_name: 'Ae aegypti', type: 'mosquito' },
  { id: 8, full_name: 'Aedes albopictus', display_name: 'Ae albopictus', type: 'mosquito' },
  { id: 9, full_name: 'Aedes vexans', display_name: 'Ae vexans', type: 'mosquito' },
  { id: 10, full_name: 'Aedes melanimon', display_name: 'Ae melanimon', type: 'mosquito' },
  { id: 11, full_name: 'Aedes nigromaculis', display_name: 'Ae nigromaculis', type: 'mosquito' },
  { id: 12, full_name: 'Aedes sierrensis', display_name: 'Ae sierrensis', type: 'mosquito' },
  { id: 13, full_name: 'Anopheles freeborni', display_name: 'An freeborni', type: 'mosquito' },
  {
    id: 14,
    full_name: 'Anopheles punctipennis',
    display_name: 'An punctipennis',
    type: 'mosquito',
  },
  { id: 15, full_name: 'Ixodes pacificus', display_name: 'Ix pacificus', type: 'tick' },
  { id: 16, full_name: 'Dermacentor occidentalis', display_name: 'De occidentalis', type: 'tick' },
  { id: 17, full_name: 'Dermacentor similis', display_name: 'De similis', type: 'tick' },
  { id: 18, full_name: 'Culicoides sonorensis', display_name: 'Cu sonorensis', type: 'nontick' },
];
export const SPECIES_ID = {
  cxTarsalis: 1,
  cxPipiens: 2,
  cxQuinque: 3,
  csInornata: 5,
  aeAegypti: 7,
  aeVexans: 9,
  anFreeborni: 13,
} as const;

/** `type` is the sex; `name` the condition. F-Mixed counts females of unknown or mixed condition. */
export const SEXES = [
  { id: 1, name: 'F-Mixed', type: 'female' },
  { id: 2, name: 'F-Unfed', type: 'female' },
  { id: 3, name: 'F-Bloodfed', type: 'female' },
  { id: 4, name: 'F-Gravid', type: 'female' },
  { id: 5, name: 'Male', type: 'male' },
  { id: 6, name: 'Other', type: 'other' },
];
export const SEX_ID = {
  fMixed: 1,
  fUnfed: 2,
  fBloodfed: 3,
  fGravid: 4,
  male: 5,
  other: 6,
} as const;

export const TRAPS = [
  { id: 1, acronym: 'CO2', name: 'CO2-baited light trap (EVS / CDC)', presence: false },
  { id: 2, acronym: 'GRVD', name: 'Gravid trap', presence: false },
  { id: 3, acronym: 'BGSENT', name: 'BG-Sentinel', presence: false },
  { id: 4, acronym: 'LCKR', name: 'Lard can trap', presence: false },
  { id: 5, acronym: 'NJLT', name: 'New Jersey light trap', presence: false },
  { id: 6, acronym: 'MMT', name: 'Mosquito Magnet trap', presence: false },
  { id: 7, acronym: 'BACKPACK', name: 'Backpack aspirator', presence: false },
  { id: 8, acronym: 'OTHER', name: 'Other trap', presence: false },
  { id: 9, acronym: 'OVI-PRES', name: 'Ovitrap (presence / absence)', presence: true },
];
export const TRAP_ID = { co2: 1, gravid: 2, bgSentinel: 3, njlt: 5 } as const;

export const LURES = [
  { id: 1, code: 'DRYICE', description: 'Dry ice (CO2), 1 kg block', weight: 1 },
  { id: 2, code: 'BGLURE', description: 'BG-Lure cartridge', weight: null },
  { id: 3, code: 'OCTENOL', description: 'Octenol (1-octen-3-ol) sachet', weight: null },
  { id: 4, code: 'HAYINF', description: 'Hay infusion (gravid trap water)', weight: null },
  { id: 5, code: 'LACTIC', description: 'Lactic acid lure', weight: null },
];

/** `meters`: the radius the coordinates are good to. */
export const COORDINATE_PRECISIONS = [
  { id: 1, name: 'GPS (< 10 m)', meters: 10 },
  { id: 2, name: 'Map or aerial photo (< 100 m)', meters: 100 },
  { id: 3, name: 'Street address (< 250 m)', meters: 250 },
  { id: 4, name: 'Nearest intersection (< 500 m)', meters: 500 },
  { id: 5, name: 'City or town centroid', meters: 5000 },
  { id: 6, name: 'County centroid', meters: 50000 },
];
export const PRECISION_ID = {
  gps: 1,
  map: 2,
  address: 3,
  intersection: 4,
  city: 5,
  county: 6,
} as const;

export const LAND_USAGES = [
  'Residential',
  'Commercial',
  'Industrial',
  'Agricultural',
  'Rice field',
  'Orchard',
  'Dairy',
  'Wetland',
  'Riparian',
  'Park or golf course',
  'Wastewater treatment',
  'Open space',
].map((name, i) => ({ id: i + 1, name }));

/** `sensitivity`: higher is more sensitive; picks a pool's definitive result (contract §6). */
export const TEST_METHODS = [
  { id: 1, name: 'RT-PCR', acronym: 'RT-PCR', sensitivity: 3 },
  { id: 2, name: 'RAMP', acronym: 'RAMP', sensitivity: 2 },
  { id: 3, name: 'VecTest', acronym: 'VecTest', sensitivity: 1 },
];
export const METHOD_ID = { rtPcr: 1, ramp: 2, vecTest: 3 } as const;

export const TEST_TARGETS = [
  { id: 1, acronym: 'WNV', name: 'West Nile virus', vector: 'mosquito', icd_10: 'A92.3' },
  {
    id: 2,
    acronym: 'SLEV',
    name: 'St. Louis encephalitis virus',
    vector: 'mosquito',
    icd_10: 'A83.3',
  },
  {
    id: 3,
    acronym: 'WEEV',
    name: 'Western equine encephalitis virus',
    vector: 'mosquito',
    icd_10: 'A83.1',
  },
  { id: 4, acronym: 'ZIKV', name: 'Zika virus', vector: 'mosquito', icd_10: 'A92.5' },
  { id: 5, acronym: 'CHIKV', name: 'Chikungunya virus', vector: 'mosquito', icd_10: 'A92.0' },
  { id: 6, acronym: 'DENV', name: 'Dengue virus', vector: 'mosquito', icd_10: 'A90' },
];
export const TARGET_ID = { wnv: 1, slev: 2, weev: 3 } as const;

export const TEST_STATUSES = [
  { id: 1, name: 'Confirmed', description: 'Positive, confirmed by a second test' },
  { id: 2, name: 'Negative', description: 'Target not detected' },
  { id: 3, name: 'Pending', description: 'Submitted, result not yet known' },
  { id: 4, name: 'Presumptive', description: 'Positive on a screening test, not yet confirmed' },
  { id: 5, name: 'Inconclusive', description: 'Result could not be read; retest advised' },
  { id: 6, name: 'Other', description: 'See comments' },
];
export const STATUS_ID = { confirmed: 1, negative: 2, pending: 3, presumptive: 4 } as const;
