import type { ListSpec } from '../list';
import { SITE_OUTPUT_FIELDS } from './serialize-site';
import { SITE_POPULATE } from './populate-sites';

/** GET /v1/site parameters: what can be filtered, sorted, searched (contract §4). */
export const SITE_LIST: ListSpec = {
  fields: {
    id: { sql: 's.id', type: 'int' },
    code: { sql: 's.code', type: 'text' },
    name: { sql: 's.name', type: 'text' },
    coordinate_precision: { sql: 's.coordinate_precision', type: 'int' },
    active_date: { sql: 's.active_date', type: 'date' },
    deactive_date: { sql: 's.deactive_date', type: 'date' },
    address_1: { sql: 's.address_1', type: 'text' },
    address_2: { sql: 's.address_2', type: 'text' },
    city: { sql: 's.city', type: 'text' },
    comments: { sql: 's.comments', type: 'text' },
    elevation: { sql: 's.elevation', type: 'float' },
    postal_code: { sql: 's.postal_code', type: 'text' },
    region: { sql: 's.region', type: 'int' },
    revision_comments: { sql: 's.revision_comments', type: 'text' },
    site_population: { sql: 's.site_population', type: 'text' },
    agency: { sql: 's.agency', type: 'int' },
    user: { sql: 's.user_id', type: 'int' },
    add_date: { sql: 's.add_date', type: 'date' },
    updated: { sql: 's.updated', type: 'date' },
  },
  outputFields: SITE_OUTPUT_FIELDS,
  populate: SITE_POPULATE,
};
