import type { ListSpec } from '../list';

/** GET /v1/history parameters (contract §11, paged and filtered as every list, §4). */
export const HISTORY_LIST: ListSpec = {
  fields: {
    id: { sql: 'h.id', type: 'int' },
    at: { sql: 'h.at', type: 'date' },
    entity: { sql: 'h.entity', type: 'text' },
    record: { sql: 'h.record_id', type: 'int' },
    action: { sql: 'h.action', type: 'text' },
    user: { sql: 'h.user_id', type: 'int' },
  },
  outputFields: ['id', 'at', 'user', 'action', 'entity', 'record', 'changes'],
  extraParams: ['entity', 'id', 'since'],
};
