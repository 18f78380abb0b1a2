import { describe, expect, it } from 'vitest';
import { detectLocale, formattingTag } from '../../../src/client/lib/i18n/locales';

describe('the tablet’s language', () => {
  it('picks the first language the app ships, by language alone, else English', () => {
    expect(detectLocale(['es-MX', 'en-US'])).toBe('es');
    expect(detectLocale(['fr-FR', 'es_US'])).toBe('es');
    expect(detectLocale(['en-GB', 'es'])).toBe('en');
    expect(detectLocale(['fr-FR', 'de'])).toBe('en');
    expect(detectLocale([])).toBe('en');
  });

  it('formats figures the tablet’s regional way: Mexico’s 10,240.5, not Spain’s 10.240,5', () => {
    const tag = formattingTag('es', ['es-MX', 'en-US']);
    expect(tag).toBe('es-MX');
    expect(new Intl.NumberFormat(tag, { minimumFractionDigits: 1 }).format(10240.5)).toBe(
      '10,240.5',
    );
    // Spanish chosen in Settings on an English tablet: Spanish as such.
    expect(formattingTag('es', ['en-US'])).toBe('es');
    expect(formattingTag('en', ['es-MX', 'en-GB'])).toBe('en-GB');
  });
});
