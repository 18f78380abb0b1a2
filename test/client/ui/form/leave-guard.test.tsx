import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { Link, Route, Switch } from 'wouter';
import { useDirtyForm } from '../../../../src/client/ui/form/dirty-forms';
import { LEAVE_QUESTION, LeaveGuard } from '../../../../src/client/ui/form/leave-guard';
import { useState } from 'react';

/** A form that registers its unsaved typing the way the app's forms do. */
function NotesForm() {
  const [text, setText] = useState('');
  useDirtyForm('notes-form', text !== '');
  return (
    <form aria-label="Notes">
      <label>
        Comments
        <input value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <button type="button" onClick={() => history.back()}>
        Cancel
      </button>
    </form>
  );
}

function App() {
  return (
    <>
      <LeaveGuard />
      <Switch>
        <Route path="/form">
          <NotesForm />
        </Route>
        <Route path="/sites">
          <h1>Sites</h1>
        </Route>
        <Route>
          <h1>Home</h1>
        </Route>
      </Switch>
      <nav aria-label="Main">
        <Link href="/sites">Sites</Link>
      </nav>
    </>
  );
}

function open() {
  history.pushState(null, '', '/');
  history.pushState(null, '', '/form');
  render(<App />);
  return userEvent.setup();
}

describe('leaving a form with unsaved typing', () => {
  beforeEach(() => history.replaceState(null, '', '/'));

  it('asks before a nav link throws the typing away, and keeps it on Keep editing', async () => {
    const user = open();
    await user.type(screen.getByLabelText('Comments'), 'pool looked odd');
    await user.click(screen.getByRole('link', { name: 'Sites' }));
    const dialog = await screen.findByRole('dialog', { name: LEAVE_QUESTION });
    expect(screen.getByRole('button', { name: 'Keep editing' })).toHaveFocus();
    expect(dialog).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect(screen.queryByRole('dialog', { name: LEAVE_QUESTION })).not.toBeInTheDocument();
    expect(location.pathname).toBe('/form');
    expect(screen.getByLabelText('Comments')).toHaveValue('pool looked odd');
  });

  it('goes where the link points once the technician discards', async () => {
    const user = open();
    await user.type(screen.getByLabelText('Comments'), 'x');
    await user.click(screen.getByRole('link', { name: 'Sites' }));
    await user.click(await screen.findByRole('button', { name: 'Discard changes' }));
    expect(await screen.findByRole('heading', { name: 'Sites' })).toBeInTheDocument();
    expect(location.pathname).toBe('/sites');
  });

  it('asks on Cancel (browser back) and stays on the form until the answer is Discard', async () => {
    const user = open();
    await user.type(screen.getByLabelText('Comments'), 'x');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await screen.findByRole('dialog', { name: LEAVE_QUESTION });
    expect(location.pathname).toBe('/form');
    expect(screen.getByLabelText('Comments')).toHaveValue('x');
    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    await waitFor(() => expect(location.pathname).toBe('/'));
  });

  it('lets a clean form go without a question', async () => {
    const user = open();
    await user.click(screen.getByRole('link', { name: 'Sites' }));
    expect(await screen.findByRole('heading', { name: 'Sites' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('has the browser warn before closing the tab over unsaved typing', async () => {
    const user = open();
    const clean = new Event('beforeunload', { cancelable: true });
    act(() => void window.dispatchEvent(clean));
    expect(clean.defaultPrevented).toBe(false);
    await user.type(screen.getByLabelText('Comments'), 'x');
    const dirty = new Event('beforeunload', { cancelable: true });
    act(() => void window.dispatchEvent(dirty));
    expect(dirty.defaultPrevented).toBe(true);
  });
});
