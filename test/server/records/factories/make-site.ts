let next = 100_000;

/** A valid POST /v1/site body with a fresh code; override any field. */
export function makeSite(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  next += 1;
  return {
    code: String(next),
    name: `Putah Creek N ${next}`,
    coordinate_precision: 1,
    shape: { type: 'Point', coordinates: [-121.49, 38.58] },
    ...overrides,
  };
}
