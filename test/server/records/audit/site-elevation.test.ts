import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import { makeSite } from '../factories/make-site';
import { api, errorOf, type Api } from '../helpers/arthropod-fixtures';

/** Issue 2 gap 13: elevation is plain decimal text out, and a sane number of metres in. */

let t: TestRecords;
let http: Api;
let manager: string;

beforeAll(async () => {
  t = await buildTestRecords();
  http = api(t);
  manager = await t.login('demo-manager');
}, 60_000);
afterAll(async () => t?.close());

describe('site elevation', () => {
  it('is returned as plain decimal text, never in exponent form', async () => {
    const s = await http.post('/v1/site', manager, makeSite({ code: '293001', elevation: 12.5 }));
    expect(s.statusCode, s.body).toBe(201);
    // A value stored before the input bound existed.
    await t.db.query('update site set elevation = 1e25 where id = $1', [s.json().id]);
    const res = await http.get(`/v1/site/${s.json().id}`, manager);
    expect(res.json().elevation).toBe('10000000000000000000000000');
    await t.db.query('update site set elevation = 0.000001 where id = $1', [s.json().id]);
    expect((await http.get(`/v1/site/${s.json().id}`, manager)).json().elevation).toBe('0.000001');
  });

  it('keeps decimals and drops trailing zeros', async () => {
    const s = await http.post(
      '/v1/site',
      manager,
      makeSite({ code: '293002', elevation: 8848.86 }),
    );
    expect(s.json().elevation).toBe('8848.86');
    const low = await http.post('/v1/site', manager, makeSite({ code: '293003', elevation: -500 }));
    expect(low.json().elevation).toBe('-500');
  });

  it.each([9000.5, -501, 1e25])('refuses %s m with 422 naming elevation', async (elevation) => {
    const res = await http.post('/v1/site', manager, makeSite({ code: '293004', elevation }));
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res).fields).toEqual([
      { path: 'elevation', message: expect.stringMatching(/Elevation must be at (least|most)/) },
    ]);
  });

  it('refuses an out-of-range elevation on PUT too', async () => {
    const s = await http.post('/v1/site', manager, makeSite({ code: '293005' }));
    const res = await http.put(`/v1/site/${s.json().id}`, manager, { elevation: '12000' });
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res).fields?.[0].path).toBe('elevation');
  });
});
