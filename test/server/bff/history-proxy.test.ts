import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyList } from '../../../src/shared/schemas/history';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { makeCollection } from './helpers/record-bodies';

let stack: BffStack;

beforeAll(async () => {
  stack = await startBffStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('/api/v1/history through the BFF (contract §11)', () => {
  it('lets anyone who can read a record read its history, and managers the changes since', async () => {
    const tech = await stack.signIn('demo-tech');
    const created = await stack.api('/api/v1/arthropod/collection', {
      method: 'POST',
      cookie: tech,
      body: makeCollection(),
    });
    expect(created.status).toBe(201);
    const { id } = created.json<{ id: number }>();

    const own = await stack.api(`/api/v1/history?entity=collection&id=${id}`, { cookie: tech });
    expect(own.status, own.text).toBe(200);
    const rows = historyList.parse(own.json()).rows;
    expect(rows.map((r) => r.action)).toEqual(['create']);

    const since = await stack.api('/api/v1/history?since=2020-01-01', { cookie: tech });
    expect(since.status).toBe(403);

    const manager = await stack.signIn('demo-manager');
    const all = await stack.api('/api/v1/history?since=2020-01-01', { cookie: manager });
    expect(all.status, all.text).toBe(200);
    expect(historyList.parse(all.json()).rows.some((r) => r.record === id)).toBe(true);

    const neighbor = await stack.signIn('neighbor-manager');
    const theirs = await stack.api(`/api/v1/history?entity=collection&id=${id}`, {
      cookie: neighbor,
    });
    expect(theirs.status).toBe(404);
  });

  it('lets no write reach /v1/history', async () => {
    const cookie = await stack.signIn('demo-manager');
    const res = await stack.api('/api/v1/history', { method: 'POST', cookie, body: {} });
    expect(res.status).toBe(405);
  });
});
