let day = 0;
let code = 400_000;

/** A valid collection at a spot with no site (its own location), on a date no other test uses. */
export function makeCollection(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  day += 1;
  const date = new Date(Date.UTC(2026, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
  return {
    collection_date: date,
    num_trap: 1,
    trap: 1,
    trap_nights: 1,
    location: { shape: { type: 'Point', coordinates: [-121.49, 38.58] }, coordinate_precision: 1 },
    arthropods: [{ species: 1, sex: 4, num_count: 12 }],
    ...overrides,
  };
}

/** A valid site with a code no other test uses. */
export function makeSite(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  code += 1;
  return {
    code: String(code),
    name: `Putah Creek N ${code}`,
    coordinate_precision: 1,
    shape: { type: 'Point', coordinates: [-121.49, 38.58] },
    ...overrides,
  };
}
