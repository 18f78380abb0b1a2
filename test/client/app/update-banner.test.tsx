import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { UpdateBanner, type RegisterServiceWorker } from '../../../src/client/app/update-banner';
import { setFormDirty } from '../../../src/client/ui/form/dirty-forms';

/**
 * A service worker registration that reports a waiting new version at once, and behaves like
 * vite-plugin-pwa 2.0.0's `registerSW` in prompt mode when the new version takes control (here or
 * because another tab activated it): it calls `onNeedReload` when given, else reloads the page.
 */
function newVersionWaiting() {
  const activate = vi.fn(async () => undefined);
  const pageReload = vi.fn();
  let takeControl = () => undefined as void;
  const registerSW: RegisterServiceWorker = ({ onNeedRefresh, onNeedReload }) => {
    queueMicrotask(onNeedRefresh);
    takeControl = () => (onNeedReload ? onNeedReload() : pageReload());
    return activate;
  };
  return {
    activate,
    pageReload,
    register: async () => registerSW,
    /** Another tab tapped Reload: the new version now controls this tab too. */
    activatedElsewhere: () => act(() => takeControl()),
  };
}

let warned: MockInstance<typeof console.warn>;
beforeEach(() => {
  warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  setFormDirty('collection-form', false);
  warned.mockRestore();
});

describe('update banner', () => {
  it('offers the new version and activates it only when the technician taps Reload', async () => {
    const sw = newVersionWaiting();
    render(<UpdateBanner register={sw.register} reloadPage={sw.pageReload} />);
    const reload = await screen.findByRole('button', { name: 'Reload' });
    expect(screen.getByText(/Update available/)).toBeInTheDocument();
    expect(sw.activate).not.toHaveBeenCalled();
    await userEvent.click(reload);
    expect(sw.activate).toHaveBeenCalledWith(true);
    sw.activatedElsewhere();
    expect(sw.pageReload).toHaveBeenCalledTimes(1);
  });

  it('never reloads under a form holding unsaved typing, and says why', async () => {
    const sw = newVersionWaiting();
    render(<UpdateBanner register={sw.register} reloadPage={sw.pageReload} />);
    const reload = await screen.findByRole('button', { name: 'Reload' });
    act(() => setFormDirty('collection-form', true));
    await userEvent.click(reload);
    expect(sw.activate).not.toHaveBeenCalled();
    expect(screen.getByText('Finish or save this form first.')).toBeInTheDocument();
    act(() => setFormDirty('collection-form', false));
    await userEvent.click(reload);
    expect(sw.activate).toHaveBeenCalledWith(true);
  });

  it('does not reload a tab with a half-filled form when another tab activates the new version', async () => {
    const sw = newVersionWaiting();
    render(<UpdateBanner register={sw.register} reloadPage={sw.pageReload} />);
    await screen.findByRole('button', { name: 'Reload' });
    act(() => setFormDirty('collection-form', true));
    sw.activatedElsewhere();
    expect(sw.pageReload).not.toHaveBeenCalled();
    expect(screen.getByText(/A new version is active — reload after saving/)).toBeInTheDocument();

    // Saved: now the technician's own tap reloads into the new version.
    act(() => setFormDirty('collection-form', false));
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(sw.pageReload).toHaveBeenCalledTimes(1);
  });

  it('reloads at once when another tab activates the new version and no form is open', async () => {
    const sw = newVersionWaiting();
    render(<UpdateBanner register={sw.register} reloadPage={sw.pageReload} />);
    await screen.findByRole('button', { name: 'Reload' });
    sw.activatedElsewhere();
    expect(sw.pageReload).toHaveBeenCalledTimes(1);
    // The console says why the page reloaded by itself.
    expect(warned).toHaveBeenCalledWith(expect.stringMatching(/new version of the app/));
  });
});
