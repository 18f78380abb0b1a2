import { describe, expect, it } from 'vitest';
import { IDENTITY_KEY } from '../../../src/client/lib/identity';
import { TABLET_LANGUAGE_KEY } from '../../../src/client/lib/i18n/language-choice';

// The test files of a worker share one jsdom page, so one page's storage (test/client/setup.ts
// clears it after each test): a remembered technician or language must not decide what the next
// test's screens show, as a stubbed-offline browser once decided the next file's (see
// connection-between-tests).
describe("the page's storage from one test to the next", () => {
  it('a test that remembers a technician and a language', () => {
    localStorage.setItem(IDENTITY_KEY, JSON.stringify({ username: 'demo-tech' }));
    localStorage.setItem(TABLET_LANGUAGE_KEY, 'es');
    sessionStorage.setItem('trapline.test', 'left behind');
    expect(localStorage.length).toBe(2);
  });

  it('the next test starts from a fresh page’s storage', () => {
    expect(localStorage.getItem(IDENTITY_KEY)).toBeNull();
    expect(localStorage.getItem(TABLET_LANGUAGE_KEY)).toBeNull();
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
  });
});
