/**
 * Writes sample-data.ts as the data frames vectorsurvR's getArthroCollections and getPools
 * build (one row per abundance row or per pool test; NA as an empty field), for
 * vectorsurvr-reference.R. Flattened here on its own, not with the module under test.
 * Run: node_modules/.bin/tsx test/shared/reports/vectorsurvr/write-csv.ts <out dir>
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sampleData } from './sample-data';

const out = process.argv[2] ?? '.';
const { collections, pools } = sampleData();
const csv = (v: unknown) => (v === null || v === undefined ? '' : `"${String(v)}"`);

const c = [
  'collection_id,collection_date,agency_code,num_trap,trap_nights,trap_problem_bit,num_count,sex_type,species_display_name,trap_acronym,surv_year,county',
];
for (const x of collections) {
  const base = [
    x.id,
    x.collection_date,
    x.agency.code,
    x.num_trap,
    x.trap_nights,
    x.trap_problem_bit ? 'TRUE' : 'FALSE',
  ];
  const rows = x.arthropods?.length ? x.arthropods : [null];
  for (const a of rows) {
    c.push(
      [
        ...base.map(csv),
        csv(a?.num_count),
        csv(a?.sex.type),
        csv(a?.species.display_name),
        csv(x.trap.acronym),
        csv(x.surv_year),
        csv('Yolo'),
      ].join(','),
    );
  }
}
writeFileSync(join(out, 'collections.csv'), c.join('\n') + '\n');

const p = [
  'id,collection_date,agency_code,surv_year,num_count,sex_type,species_display_name,trap_acronym,test_target_acronym,test_status_name',
];
for (const x of pools) {
  const tests = x.test?.length ? x.test : [null];
  for (const t of tests) {
    p.push(
      [
        x.id,
        x.collection_date,
        x.agency.code,
        x.surv_year,
        x.num_count,
        x.sex.type,
        x.species.display_name,
        x.trap?.acronym,
        t?.target.acronym,
        t?.status.name,
      ]
        .map(csv)
        .join(','),
    );
  }
}
writeFileSync(join(out, 'pools.csv'), p.join('\n') + '\n');
