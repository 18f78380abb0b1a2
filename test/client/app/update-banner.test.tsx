import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UpdateBanner, type RegisterServiceWorker } from '../../../src/client/app/update-banner';
import { setFormDirty } from '../../../src/client/lib/dirty-forms';

/** A service worker registration that reports a waiting new version at once. */
function newVersionWaiting() {
  const activate = vi.fn(async () => undefined);
  const registerSW: RegisterServiceWorker = ({ onNeedRefresh }) => {
    queueMicrotask(onNeedRefresh);
    return activate;
  };
  return { activate, register: async () => registerSW };
}

afterEach(() => setFormDirty('collection-form', false));

describe('update banner', () => {
  it('offers the new version and activates it only when the technician taps Reload', async () => {
    const sw = newVersionWaiting();
    render(<UpdateBanner register={sw.register} />);
    const reload = await screen.findByRole('button', { name: 'Reload' });
    expect(screen.getByText(/Update available/)).toBeInTheDocument();
    expect(sw.activate).not.toHaveBeenCalled();
    await userEvent.click(reload);
    expect(sw.activate).toHaveBeenCalledWith(true);
  });

  it('never reloads under a form holding unsaved typing, and says why', async () => {
    const sw = newVersionWaiting();
    render(<UpdateBanner register={sw.register} />);
    const reload = await screen.findByRole('button', { name: 'Reload' });
    act(() => setFormDirty('collection-form', true));
    await userEvent.click(reload);
    expect(sw.activate).not.toHaveBeenCalled();
    expect(screen.getByText('Finish or save this form first.')).toBeInTheDocument();
    act(() => setFormDirty('collection-form', false));
    await userEvent.click(reload);
    expect(sw.activate).toHaveBeenCalledWith(true);
  });
});
