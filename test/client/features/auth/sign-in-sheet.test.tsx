import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SignInSheet } from '../../../../src/client/features/auth/sign-in-sheet';

/** What a browser focuses when a modal dialog opens (no autofocus): its first focusable control. */
const FOCUSABLE = 'input:not([type="hidden"]):not([hidden]), select, textarea, button, a[href]';

function openSheet() {
  render(
    <SignInSheet
      open
      username="demo-tech"
      onSignedIn={() => undefined}
      onLater={() => undefined}
    />,
  );
  return screen.getByRole('dialog', { name: 'Sign in again' });
}

describe('the "Sign in again" sheet', () => {
  it('opens with the keyboard on Password: the fixed username is no control to land on', () => {
    const sheet = openSheet();
    const password = within(sheet).getByLabelText('Password');
    // A modal dialog gives the focus to its first focusable control: that must be Password, or a
    // tablet opens no keyboard.
    expect(sheet.querySelector(FOCUSABLE)).toBe(password);
    expect(password).toHaveFocus();
    expect(within(sheet).queryByRole('textbox', { name: 'Username' })).not.toBeInTheDocument();
  });

  it('still says whose session it is', () => {
    const sheet = openSheet();
    expect(within(sheet).getByText('demo-tech')).toBeVisible();
  });
});
