import { randomUUID } from 'node:crypto';
import { ENTITY } from '#shared/entities';
import { reauthRequired } from './session-errors';
import { UpstreamError, type UpstreamClient, type UpstreamResponse } from './upstream-client';

/** How long "this upstream ignores Idempotency-Key" is believed before asking again. */
const NO_KEYS_RECHECK_MS = 5 * 60_000;

/**
 * Whether the upstream honours Idempotency-Key (contract §9), detected, never assumed: an upstream
 * that honours it names the key back on its answer to a keyed POST. Learned from every keyed
 * answer; when not yet known (a BFF just restarted), a probe asks: a keyed POST of an empty pool
 * test, which every upstream refuses (422) without creating anything.
 * With an upstream that honours keys, a create whose answer was lost is simply sent again with
 * the same key, and the upstream itself answers with the one record it made (or makes it now).
 */
export class UpstreamKeys {
  private honoured: boolean | undefined;
  private checkedAt = 0;

  constructor(
    private readonly upstream: UpstreamClient,
    private readonly now: () => Date,
  ) {}

  /** Records what a keyed POST's answer says about the upstream. */
  learn(key: string, res: UpstreamResponse): void {
    if (res.honouredKey === key) {
      this.honoured = true;
    } else if (res.status >= 200 && res.status < 300) {
      // It created a record and did not name the key: it ignores keys.
      this.honoured = false;
      this.checkedAt = this.now().getTime();
    }
  }

  async honours(token: string): Promise<boolean> {
    if (this.honoured === true) return true;
    if (this.honoured === false && this.now().getTime() - this.checkedAt < NO_KEYS_RECHECK_MS)
      return false;
    const key = `trapline-probe-${randomUUID()}`;
    const res = await this.upstream.request({
      method: 'POST',
      path: ENTITY.poolTest.path,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      body: '{}',
    });
    if (res.status === 401) throw reauthRequired();
    if (res.status >= 500 || res.status === 429) {
      throw new UpstreamError('unavailable', false, `idempotency probe answered ${res.status}`);
    }
    this.honoured = res.honouredKey === key;
    this.checkedAt = this.now().getTime();
    return this.honoured;
  }
}
