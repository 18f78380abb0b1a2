import type { Queryable } from '../../db/database';
import { hashPassword, type PasswordCost } from '../auth/password';
import { insertRows } from './insert-rows';
import { PRECISION_ID, REGION } from './lookup-data';
import { ZERO_SITE_CODE } from '#shared/schemas/site';

export const DEMO_AGENCIES = [
  {
    id: 1,
    code: 'DVCD',
    name: 'Demo Vector Control District',
    state_acronym: 'CA',
    region: REGION.sacramento,
  },
  {
    id: 2,
    code: 'NMAD',
    name: 'Neighbor Mosquito Abatement District',
    state_acronym: 'CA',
    region: REGION.yolo,
  },
  // An outside laboratory: pool tests name it as test_agency; it has no users.
  {
    id: 3,
    code: 'ARBOLAB',
    name: 'Regional Arbovirus Laboratory',
    state_acronym: 'CA',
    region: REGION.california,
  },
];

export const DEMO_USERS = [
  { id: 1, agency: 1, username: 'demo-manager', name: 'Dana Whitfield', role: 'manager' },
  { id: 2, agency: 1, username: 'demo-tech', name: 'Sam Okafor', role: 'technician' },
  { id: 3, agency: 2, username: 'neighbor-manager', name: 'Lee Navarro', role: 'manager' },
] as const;

/** Where each agency's Zero Site sits: its county's centroid. */
const ZERO_SITE_POINT: Record<number, [number, number]> = {
  1: [-121.3443, 38.4496],
  2: [-121.9018, 38.6866],
  3: [-119.4179, 36.7783],
};

export type SeededAccounts = {
  agencies: { id: number; name: string }[];
  users: { id: number; agency: number; username: string; role: string }[];
};

/**
 * Seeds the demo agencies, their accounts (all with `password`) and each agency's Zero Site
 * (contract §6: every agency has one, created with it). Needs the lookups seeded first.
 */
export async function seedDemoAgencies(
  db: Queryable,
  options: { password: string; passwordCost?: PasswordCost },
): Promise<SeededAccounts> {
  await insertRows(db, 'agency', DEMO_AGENCIES);
  const hash = await hashPassword(options.password, options.passwordCost);
  // One hash for all demo accounts: they share the password, and scrypt is slow on purpose.
  await insertRows(
    db,
    'app_user',
    DEMO_USERS.map((u) => ({ ...u, password_hash: hash })),
  );
  for (const agency of DEMO_AGENCIES) await createZeroSite(db, agency.id, agency.region);
  return {
    agencies: DEMO_AGENCIES.map(({ id, name }) => ({ id, name })),
    users: DEMO_USERS.map(({ id, agency, username, role }) => ({ id, agency, username, role })),
  };
}

/** The Zero Site of an agency: where non-recurring surveillance is filed (interface rule 4). */
export async function createZeroSite(
  db: Queryable,
  agencyId: number,
  region: number | null,
): Promise<void> {
  const [lon, lat] = ZERO_SITE_POINT[agencyId] ?? [-119.4179, 36.7783];
  await db.query(
    `insert into site (agency, code, name, coordinate_precision, lon, lat, region, comments)
     values ($1, $2, 'Zero Site', $3, $4, $5, $6, 'For non-recurring surveillance')`,
    [agencyId, ZERO_SITE_CODE, PRECISION_ID.county, lon, lat, region],
  );
}
