import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmIntl } from '../../../../src/client/lib/i18n/warm-intl';

describe('warmIntl', () => {
  afterEach(() => vi.restoreAllMocks());

  it('readies NumberFormat, DateTimeFormat and PluralRules each in a task of its own', async () => {
    // The order in which the services are asked for their locales, and where the tasks end.
    const steps: string[] = [];
    for (const service of ['NumberFormat', 'DateTimeFormat', 'PluralRules'] as const) {
      const real = Intl[service].supportedLocalesOf.bind(Intl[service]);
      vi.spyOn(Intl[service], 'supportedLocalesOf').mockImplementation((locales) => {
        steps.push(service);
        return real(locales);
      });
    }
    await warmIntl(async () => {
      steps.push('next task');
    });
    expect(steps).toEqual([
      'NumberFormat',
      'next task',
      'DateTimeFormat',
      'next task',
      'PluralRules',
      'next task',
    ]);
  });
});
