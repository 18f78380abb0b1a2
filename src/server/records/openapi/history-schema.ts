import { z } from 'zod';
import { historyList } from '#shared/schemas/history';
import { answer, errorAnswers, LIST_QUERY } from './route-schemas';
import { listQuerystring } from '../list/list-querystring';
import { HISTORY_LIST } from '../history/history-list-spec';

/** GET /v1/history in the OpenAPI document (contract §11). */
export const HISTORY_ROUTE_SCHEMA = {
  tags: ['history'],
  description:
    "One record's history (entity and id; same agency rules as the record's GET), or the " +
    "agency's changes since a date (since; managers only), oldest first. Each row's `changes` " +
    'is {field: [before, after]}; a collection lists its abundance rows and lures as the sets ' +
    '`arthropods` and `lures` before and after.',
  querystring: listQuerystring(
    LIST_QUERY.omit({ 'populate[]': true }).extend({
      entity: z.enum(['site', 'collection', 'pool', 'test']).optional(),
      id: z.number().int().min(1).optional().meta({ description: "The record's id" }),
      since: z.string().optional().meta({ description: 'ISO date or date-time (managers)' }),
    }),
    HISTORY_LIST,
  ),
  response: {
    200: answer('History rows, oldest first', historyList),
    ...errorAnswers('400', '401', '403', '404', '422'),
  },
};
