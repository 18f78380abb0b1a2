import { useState, type FormEvent } from 'react';
import { MIN_PASSWORD_LENGTH, newPasswordProblem, type SessionInfo } from '#shared';
import { Banner } from '../../ui/banner';
import { Field } from '../../ui/form/field';
import { choosePassword } from './session-api';

type Props = {
  username: string;
  /** The temporary password just typed: held in memory for this step only, never stored. */
  temporaryPassword: string;
  onSignedIn: (session: SessionInfo) => void | Promise<void>;
  onBack: () => void;
};

type Errors = { newPassword?: string; repeat?: string };

/**
 * The "choose your password" step of a first sign-in (or after a manager's reset): the session
 * starts once the new password is set. What was typed stays on an error; the server's field
 * messages show beside the fields.
 */
export function ChoosePasswordForm({ username, temporaryPassword, onSignedIn, onBack }: Props) {
  const [newPassword, setNewPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const problem = newPasswordProblem(newPassword, username);
    const next: Errors = {};
    if (problem) next.newPassword = problem;
    else if (repeat !== newPassword) next.repeat = 'The two passwords differ: type it again';
    setErrors(next);
    if (next.newPassword || next.repeat) return;
    setBusy(true);
    try {
      const result = await choosePassword({
        username,
        password: temporaryPassword,
        new_password: newPassword,
      });
      if (result.ok) {
        await onSignedIn(result.session);
        return;
      }
      const field = result.fields.find((f) => f.path === 'new_password');
      setErrors(field ? { newPassword: field.message } : {});
      setFailure(field ? 'Choose another password.' : result.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Choose your password">
      <h2>Choose your password</h2>
      <p>
        You signed in as <strong>{username}</strong> with a temporary password. Choose your own: at
        least {MIN_PASSWORD_LENGTH} characters, not your username.
      </p>
      {failure ? <Banner tone="error">{failure}</Banner> : null}
      <input type="text" hidden readOnly autoComplete="username" value={username} />
      <Field label="New password" error={errors.newPassword}>
        <input
          type="password"
          autoComplete="new-password"
          autoFocus
          value={newPassword}
          onChange={(e) => setNewPassword(e.target.value)}
        />
      </Field>
      <Field label="New password again" error={errors.repeat}>
        <input
          type="password"
          autoComplete="new-password"
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
        />
      </Field>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Setting your password…' : 'Set password and sign in'}
        </button>
        <button type="button" className="button button-quiet" onClick={onBack}>
          Back
        </button>
      </div>
    </form>
  );
}
