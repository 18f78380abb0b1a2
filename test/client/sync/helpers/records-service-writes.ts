import { expect } from 'vitest';
import type { RecordsApi } from '../../../e2e/harness/records-api';

/**
 * Creates a record at the records service itself (not through the BFF) as `api`'s user: the
 * office, or another technician. Fails the test unless the service answers 201, naming the path
 * and its answer. Answers the record as stored (its id and `updated`).
 */
export async function createRecord<T = { id: number; updated: string }>(
  api: RecordsApi,
  path: string,
  body: unknown,
): Promise<T> {
  const res = await api.post<T>(path, body);
  expect(res.status, `POST ${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

/**
 * Deletes a record at the records service at `recordsUrl` as `api`'s user (the data manager's
 * deletion in the office). Fails the test unless the service answers with a status below 300,
 * naming the path.
 */
export async function deleteRecord(recordsUrl: string, api: RecordsApi, path: string) {
  const res = await fetch(`${recordsUrl}${path}`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${api.token}` },
  });
  expect(res.status, `DELETE ${path}`).toBeLessThan(300);
}
