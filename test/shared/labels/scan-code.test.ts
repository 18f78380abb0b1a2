import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeScannedCode,
  encodePoolLabel,
  encodeSiteTag,
} from '../../../src/shared/labels/scan-code';

const id = fc.integer({ min: 1, max: 2_147_483_647 });

describe('pool label and site tag payloads', () => {
  it('writes a pool label as TRAPLINE:P:<agency>:<pool id>:<pool number>', () => {
    expect(encodePoolLabel({ agency: 1, poolId: 4711, poolNumber: 82 })).toBe(
      'TRAPLINE:P:1:4711:82',
    );
    expect(encodeSiteTag({ agency: 2, siteId: 37 })).toBe('TRAPLINE:S:2:37');
  });

  it('uses only QR alphanumeric characters, so the code stays small on a 1-inch label', () => {
    fc.assert(
      fc.property(id, id, id, (agency, poolId, poolNumber) => {
        expect(encodePoolLabel({ agency, poolId, poolNumber })).toMatch(/^[0-9A-Z:]+$/);
      }),
    );
  });

  it('reads back every pool label and site tag it writes', () => {
    fc.assert(
      fc.property(id, id, id, (agency, poolId, poolNumber) => {
        expect(decodeScannedCode(encodePoolLabel({ agency, poolId, poolNumber }))).toEqual({
          kind: 'pool',
          agency,
          poolId,
          poolNumber,
        });
      }),
    );
    fc.assert(
      fc.property(id, id, (agency, siteId) => {
        expect(decodeScannedCode(encodeSiteTag({ agency, siteId }))).toEqual({
          kind: 'site',
          agency,
          siteId,
        });
      }),
    );
  });

  it('refuses to write a label without a pool number (an unsynced pool has none)', () => {
    expect(() => encodePoolLabel({ agency: 1, poolId: 5, poolNumber: 0 })).toThrow(/poolNumber/);
    expect(() => encodePoolLabel({ agency: 1, poolId: Number.NaN, poolNumber: 3 })).toThrow(
      /poolId/,
    );
    expect(() => encodeSiteTag({ agency: 1.5, siteId: 3 })).toThrow(/agency/);
  });

  it('reads a trap tag that carries the site code, and other text as a possible site name', () => {
    expect(decodeScannedCode('104233')).toEqual({ kind: 'site-code', code: '104233' });
    expect(decodeScannedCode(' Putah Creek N \n')).toEqual({ kind: 'text', text: 'Putah Creek N' });
  });

  it('calls a damaged or unknown Trapline code invalid rather than guessing', () => {
    for (const text of [
      'TRAPLINE:P:1:4711',
      'TRAPLINE:P:1:4711:82:9',
      'TRAPLINE:P:1:0:82',
      'TRAPLINE:P:1:-4:82',
      'TRAPLINE:P:1:007:82',
      'TRAPLINE:P:1:99999999999:82',
      'TRAPLINE:P:1:2147483648:82',
      'TRAPLINE:S:1',
      'TRAPLINE:X:1:2',
      'TRAPLINE:',
    ]) {
      expect(decodeScannedCode(text), text).toEqual({ kind: 'invalid', text });
    }
    expect(decodeScannedCode('   ').kind).toBe('invalid');
    expect(decodeScannedCode('x'.repeat(201)).kind).toBe('invalid');
  });

  it('accepts the prefix in any case (some scanners upper- or lower-case what they read)', () => {
    expect(decodeScannedCode('trapline:p:1:4711:82')).toEqual({
      kind: 'pool',
      agency: 1,
      poolId: 4711,
      poolNumber: 82,
    });
  });
});
