import { describe, expect, it } from 'vitest';
import { isTemplateRefused, watchRefusedSources } from '../../../src/client/lib/refused-sources';

/** What Chromium dispatches on the document when the page's CSP blocks a load. */
function refuse(blockedURI: string) {
  const event = new Event('securitypolicyviolation');
  Object.assign(event, { blockedURI });
  document.dispatchEvent(event);
}

describe('tile servers the page’s security policy refused', () => {
  it('tells a refused tile server from one that merely failed, {s} subdomains included', () => {
    watchRefusedSources();
    const template = 'https://{s}.tiles.example.org/{z}/{x}/{y}.png';
    expect(isTemplateRefused(template)).toBe(false);
    refuse('inline');
    refuse('https://other.example.org/1/2/3.png');
    expect(isTemplateRefused(template)).toBe(false);
    refuse('https://b.tiles.example.org/9/84/197.png');
    expect(isTemplateRefused(template)).toBe(true);
    // Not a look-alike host that merely ends the same way.
    expect(isTemplateRefused('https://tiles.example.org.evil.test/{z}/{x}/{y}.png')).toBe(false);
    expect(isTemplateRefused('http://127.0.0.1:8090/{z}/{x}/{y}.png')).toBe(false);
  });
});
