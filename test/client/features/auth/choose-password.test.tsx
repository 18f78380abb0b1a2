import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignInForm } from '../../../../src/client/features/auth/sign-in-form';

/**
 * The "choose your password" step of a first sign-in, against a stubbed BFF: a temporary
 * password leads to it, what was typed is kept on errors, and the server's field messages show
 * beside the field.
 */
type Answer = { status: number; body: unknown };
const json = ({ status, body }: Answer) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const SESSION = {
  user: { id: 9, username: 'river-tech', name: 'River Okoye', role: 'technician' },
  agency: { id: 1, name: 'Demo Vector Control District' },
  expiresAt: '2026-07-14T16:00:00.000Z',
};

function stubBff(answers: Record<string, Answer[]>) {
  const sent: Array<{ path: string; body: unknown }> = [];
  vi.stubGlobal('fetch', async (path: string, init: RequestInit) => {
    sent.push({ path, body: JSON.parse(String(init.body)) });
    return json(answers[path].shift()!);
  });
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

async function signInWithTemporary() {
  const onSignedIn = vi.fn();
  render(<SignInForm onSignedIn={onSignedIn} />);
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Username'), 'river-tech');
  await user.type(screen.getByLabelText('Password'), 'k7pm-x3ad-9qre-w2hn');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  const step = await screen.findByRole('form', { name: 'Choose your password' });
  return { user, step, onSignedIn };
}

describe('choosing a password at the first sign-in', () => {
  it('shows the step after a temporary password, and signs in once the new one is set', async () => {
    const sent = stubBff({
      '/api/session': [
        { status: 403, body: { error: { code: 'password_change_required', message: 'x' } } },
      ],
      '/api/session/password': [{ status: 200, body: SESSION }],
    });
    const { user, step, onSignedIn } = await signInWithTemporary();
    await user.type(within(step).getByLabelText('New password'), 'culex-season-2026');
    await user.type(within(step).getByLabelText('New password again'), 'culex-season-2026');
    await user.click(within(step).getByRole('button', { name: 'Set password and sign in' }));
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(SESSION));
    expect(sent.at(-1)).toEqual({
      path: '/api/session/password',
      body: {
        username: 'river-tech',
        password: 'k7pm-x3ad-9qre-w2hn',
        new_password: 'culex-season-2026',
      },
    });
  });

  it('says what is wrong beside the field and keeps what was typed', async () => {
    stubBff({
      '/api/session': [
        { status: 403, body: { error: { code: 'password_change_required', message: 'x' } } },
      ],
      '/api/session/password': [
        {
          status: 422,
          body: {
            error: {
              code: 'validation_failed',
              message: 'new_password: Choose a password different from the current one',
              fields: [
                {
                  path: 'new_password',
                  message: 'Choose a password different from the current one',
                },
              ],
            },
          },
        },
      ],
    });
    const { user, step, onSignedIn } = await signInWithTemporary();
    const field = within(step).getByLabelText('New password');
    // Checked on the tablet first: too short, and two different entries.
    await user.type(field, 'short');
    await user.click(within(step).getByRole('button', { name: 'Set password and sign in' }));
    expect(await within(step).findByText('Use at least 12 characters')).toBeVisible();
    await user.clear(field);
    await user.type(field, 'k7pm-x3ad-9qre-w2hn-x');
    await user.type(within(step).getByLabelText('New password again'), 'something-else-here');
    await user.click(within(step).getByRole('button', { name: 'Set password and sign in' }));
    expect(await within(step).findByText('The two passwords differ: type it again')).toBeVisible();
    // The server's refusal is shown beside the field; what was typed stays.
    await user.clear(within(step).getByLabelText('New password again'));
    await user.type(within(step).getByLabelText('New password again'), 'k7pm-x3ad-9qre-w2hn-x');
    await user.click(within(step).getByRole('button', { name: 'Set password and sign in' }));
    expect(
      await within(step).findByText('Choose a password different from the current one'),
    ).toBeVisible();
    expect(field).toHaveValue('k7pm-x3ad-9qre-w2hn-x');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(onSignedIn).not.toHaveBeenCalled();
  });
});
