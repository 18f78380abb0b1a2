import { describe, expect, it } from 'vitest';
import {
  collectionCreate,
  fieldsFromZod,
  lureTypeIds,
  mixedConditionConflicts,
  numericLoose,
  poolCreate,
  shapeInput,
  siteCreate,
  siteUpdate,
  summarizeFields,
  survYearOf,
  toIsoOutput,
} from '../../src/shared';

const sacramento = { type: 'Point' as const, coordinates: [-121.49, 38.58] as [number, number] };
const validSite = {
  code: '104233',
  name: 'Putah Creek N',
  coordinate_precision: 1,
  shape: sacramento,
};

function messages(result: { success: boolean; error?: unknown }, input?: unknown) {
  return result.success
    ? []
    : fieldsFromZod(result.error as never, input).map((f) => `${f.path}: ${f.message}`);
}

describe('coordinates (contract §1: the interface swapped the bounds)', () => {
  it('accepts a Sacramento point in [longitude, latitude] order', () => {
    expect(shapeInput.safeParse(sacramento).success).toBe(true);
  });

  it('rejects the swapped pair with a message that names the swap', () => {
    const result = shapeInput.safeParse({ type: 'Point', coordinates: [38.58, -121.49] });
    expect(result.success).toBe(false);
    expect(messages(result).join('\n')).toMatch(/swapped/);
    expect(messages(result).join('\n')).toMatch(/\[-121.49, 38.58\]/);
  });

  it('rejects a pair that fits neither order without claiming a swap', () => {
    const msgs = messages(shapeInput.safeParse({ type: 'Point', coordinates: [200, 100] }));
    expect(msgs.join('\n')).toMatch(/-180\.\.180/);
    expect(msgs.join('\n')).not.toMatch(/swapped/);
  });

  it('accepts only Point shapes', () => {
    expect(messages(shapeInput.safeParse({ ...sacramento, type: 'Polygon' }))[0]).toMatch(/Point/);
  });
});

describe('site schema', () => {
  it('lists every failing field, with "Required" for missing ones', () => {
    const fields = fieldsFromZod(siteCreate.safeParse({}).error!, {});
    expect(fields.map((f) => f.path).sort()).toEqual([
      'code',
      'coordinate_precision',
      'name',
      'shape',
    ]);
    expect(fields.every((f) => f.message === 'Required')).toBe(true);
    expect(summarizeFields(fields)).toMatch(/is required \(and 3 more\)/);
  });

  it('rejects a code that is not six digits and a postal code that is not five', () => {
    const msgs = messages(
      siteCreate.safeParse({ ...validSite, code: '12345', postal_code: '9581' }),
    );
    expect(msgs).toContain('code: Site code must be exactly 6 digits');
    expect(msgs).toContain('postal_code: Postal code must be 5 digits');
  });

  it('rejects unknown and response-only fields on create so typos never drop data', () => {
    const msgs = messages(siteCreate.safeParse({ ...validSite, nmae: 'x', id: 4 }));
    expect(msgs.join('\n')).toMatch(/Unknown fields: nmae, id/);
  });

  it('accepts response-only fields on update and allows null to clear optional fields only', () => {
    expect(siteUpdate.safeParse({ id: 3, updated: 'x', city: null }).success).toBe(true);
    expect(siteUpdate.safeParse({ name: null }).success).toBe(false);
  });
});

describe('collection schema', () => {
  const base = { collection_date: '2026-07-14', num_trap: 1, trap: 2, trap_nights: 1 };

  it('accepts a date or a date-time with offset, not a bare local time', () => {
    expect(collectionCreate.safeParse(base).success).toBe(true);
    expect(
      collectionCreate.safeParse({ ...base, collection_date: '2026-07-14T06:30:00-07:00' }).success,
    ).toBe(true);
    expect(
      collectionCreate.safeParse({ ...base, collection_date: '2026-07-14T06:30:00' }).success,
    ).toBe(false);
    expect(collectionCreate.safeParse({ ...base, collection_date: '2026-02-30' }).success).toBe(
      false,
    );
  });

  it('requires at least one trap and one trap night, in whole numbers', () => {
    const input = { ...base, num_trap: 0, trap_nights: 1.5 };
    const msgs = messages(collectionCreate.safeParse(input), input);
    expect(msgs).toEqual([
      'num_trap: At least 1 trap',
      'trap_nights: Trap nights must be a whole number',
    ]);
  });

  it('refuses two abundance rows for the same species and sex', () => {
    const rows = [
      { species: 1, sex: 4, num_count: 10 },
      { species: 1, sex: 4, num_count: 3 },
    ];
    const msgs = messages(collectionCreate.safeParse({ ...base, arthropods: rows }));
    expect(msgs).toEqual([
      'arthropods.1.sex: Row 2 repeats the species and sex of row 1; add the counts into one row',
    ]);
  });

  it('takes the survey year from the date as written', () => {
    expect(survYearOf('2025-12-31T23:30:00-08:00')).toBe(2025);
    expect(survYearOf('2026-07-14')).toBe(2026);
  });
});

describe('F-Mixed rule', () => {
  const sexes = [
    { id: 1, name: 'F-Mixed' },
    { id: 2, name: 'F-Gravid' },
    { id: 3, name: 'Male' },
  ];
  it('flags a specific female condition combined with F-Mixed for one species', () => {
    const errors = mixedConditionConflicts(
      [
        { species: 7, sex: 1 },
        { species: 7, sex: 2 },
        { species: 7, sex: 3 },
        { species: 8, sex: 2 },
      ],
      sexes,
    );
    expect(errors.map((e) => e.path)).toEqual(['arthropods.1.sex']);
  });
});

describe('pool schema', () => {
  it('needs a collection, or site, date and trap with primary_source_bit', () => {
    expect(poolCreate.safeParse({ collection: 3, num_count: 5, species: 1, sex: 1 }).success).toBe(
      true,
    );
    expect(messages(poolCreate.safeParse({ num_count: 5, species: 1, sex: 1 }))).toContain(
      'collection: collection is required',
    );
    const byTrap = {
      num_count: 5,
      species: 1,
      sex: 1,
      site: 2,
      collection_date: '2026-07-14',
      trap: 1,
    };
    expect(messages(poolCreate.safeParse(byTrap))[0]).toMatch(/primary_source_bit must be true/);
    expect(poolCreate.safeParse({ ...byTrap, primary_source_bit: true }).success).toBe(true);
  });

  it('holds at least one specimen', () => {
    expect(
      messages(poolCreate.safeParse({ collection: 3, num_count: 0, species: 1, sex: 1 })),
    ).toEqual(['num_count: A pool holds at least 1']);
  });
});

describe('tolerated variations', () => {
  it('reads elevation as a number or a numeric string', () => {
    expect(numericLoose.parse('12.5')).toBe(12.5);
    expect(numericLoose.parse(7)).toBe(7);
  });

  it('reads lures as IDs or as lure records', () => {
    expect(
      lureTypeIds([
        { id: 9, lure: 3 },
        { id: 10, lure: { id: 4 } },
      ]),
    ).toEqual([3, 4]);
    expect(lureTypeIds([3, 4])).toEqual([3, 4]);
  });

  it('formats output dates as UTC with milliseconds', () => {
    expect(toIsoOutput('2026-07-14')).toBe('2026-07-14T00:00:00.000Z');
    expect(toIsoOutput('2026-07-14T06:30:00-07:00')).toBe('2026-07-14T13:30:00.000Z');
  });
});

describe('text fields refuse a lone UTF-16 surrogate (issue 36 N5), so the form does first', () => {
  const broken = 'x \ud800 y';
  it.each([
    ['site name', siteCreate, { ...validSite, name: broken }, 'name'],
    ['site comments', siteCreate, { ...validSite, comments: broken }, 'comments'],
    [
      'custom land usage',
      siteCreate,
      { ...validSite, site_land_usage_custom: ['\udc00'] },
      'site_land_usage_custom.0',
    ],
    [
      'collection comments',
      collectionCreate,
      { collection_date: '2026-07-14', num_trap: 1, trap: 1, trap_nights: 1, comments: broken },
      'comments',
    ],
    [
      'identified by',
      collectionCreate,
      {
        collection_date: '2026-07-14',
        num_trap: 1,
        trap: 1,
        trap_nights: 1,
        identified_by: broken,
      },
      'identified_by',
    ],
    [
      'pool comments',
      poolCreate,
      { collection: 1, species: 1, sex: 1, num_count: 5, comments: broken },
      'comments',
    ],
  ] as const)('%s', (_name, schema, input, field) => {
    const result = (schema as typeof siteCreate).safeParse(input);
    expect(messages(result, input)).toContain(
      `${field}: This text holds a broken character (an unpaired UTF-16 surrogate); retype it`,
    );
  });

  it('keeps emoji and other paired surrogates as typed', () => {
    const result = siteCreate.safeParse({ ...validSite, comments: 'ditch by the 🦟 sign 𠀀' });
    expect(result.success).toBe(true);
  });
});
