/**
 * Whole-page navigations of the error boundaries, in one object so tests can watch them (jsdom's
 * `location.reload` cannot be replaced).
 */
export const pageNavigation = {
  reload(): void {
    window.location.reload();
  },
  /** A fresh load of the start page (the service worker serves it offline). */
  goToStart(): void {
    window.location.assign('/');
  },
};
