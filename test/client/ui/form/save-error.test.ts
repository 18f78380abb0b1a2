import { describe, expect, it, vi } from 'vitest';
import { english, makeIntl } from '../../../../src/client/lib/i18n';
import { saveErrorMessage, type Refusal } from '../../../../src/client/ui/form/save-error';

const intl = makeIntl('en', english);

class Refused extends Error implements Refusal {
  constructor(
    message: string,
    readonly fields: { path: string; message: string }[],
  ) {
    super(message);
  }
}
const isRefused = (e: unknown): e is Refused => e instanceof Refused;

describe('saveErrorMessage', () => {
  it('puts a refusal’s field messages beside their fields and says its own words', () => {
    const setError = vi.fn();
    const message = saveErrorMessage(
      intl,
      new Refused('Check the highlighted fields', [
        { path: 'code', message: 'Already used by site 4' },
      ]),
      isRefused,
      setError,
    );
    expect(message).toBe('Check the highlighted fields');
    expect(setError).toHaveBeenCalledWith('code', {
      type: 'server',
      message: 'Already used by site 4',
    });
  });

  it('maps payload paths onto form fields', () => {
    const setError = vi.fn();
    saveErrorMessage(
      intl,
      new Refused('x', [{ path: 'arthropods.0.num_count', message: 'Too few' }]),
      isRefused,
      setError,
      (p) => p.replace('arthropods', 'rows'),
    );
    expect(setError).toHaveBeenCalledWith('rows.0.num_count', expect.anything());
  });

  it('says nothing was saved on the tablet when storage itself failed', () => {
    const setError = vi.fn();
    const message = saveErrorMessage(intl, new Error('QuotaExceededError'), isRefused, setError);
    expect(message).toBe('Could not save on this tablet: QuotaExceededError');
    expect(setError).not.toHaveBeenCalled();
  });
});
