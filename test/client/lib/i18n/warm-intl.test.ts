import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmIntl } from '../../../../src/client/lib/i18n/warm-intl';

describe('warmIntl', () => {
  afterEach(() => vi.restoreAllMocks());

  it('readies NumberFormat, DateTimeFormat and PluralRules each in a task of its own', async () => {
    // The order in which the services are asked for their locales, and where the tasks end.
    const steps: string[] = [];
    const asked = (service: string) => () => {
      steps.push(service);
      return [] as string[];
    };
    vi.spyOn(Intl.NumberFormat, 'supportedLocalesOf').mockImplementation(asked('NumberFormat'));
    vi.spyOn(Intl.DateTimeFormat, 'supportedLocalesOf').mockImplementation(asked('DateTimeFormat'));
    vi.spyOn(Intl.PluralRules, 'supportedLocalesOf').mockImplementation(asked('PluralRules'));
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
