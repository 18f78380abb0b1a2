import { useState, type FormEvent } from 'react';
import type { SessionInfo } from '#shared/schemas/auth';
import { MIN_PASSWORD_LENGTH, newPasswordProblem } from '#shared/schemas/people';
import { sayIn, translateShared, useI18n } from '../../lib/i18n';
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
  const intl = useI18n();
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
    if (problem) next.newPassword = translateShared(intl, problem);
    else if (repeat !== newPassword)
      next.repeat = intl.formatMessage({
        id: 'choosePassword.differ',
        defaultMessage: 'The two passwords differ: type it again',
      });
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
      setFailure(
        field
          ? intl.formatMessage({
              id: 'choosePassword.chooseAnother',
              defaultMessage: 'Choose another password.',
            })
          : sayIn(intl, result.message),
      );
    } finally {
      setBusy(false);
    }
  };

  const title = intl.formatMessage({
    id: 'choosePassword.title',
    defaultMessage: 'Choose your password',
  });
  return (
    <form className="form" onSubmit={submit} noValidate aria-label={title}>
      <h2>{title}</h2>
      <p>
        {intl.formatMessage(
          {
            id: 'choosePassword.intro',
            defaultMessage:
              'You signed in as <b>{username}</b> with a temporary password. Choose your own: at least {min} characters, not your username.',
          },
          { username, min: MIN_PASSWORD_LENGTH, b: (chunks) => <strong>{chunks}</strong> },
        )}
      </p>
      {failure ? <Banner tone="error">{failure}</Banner> : null}
      <input type="text" hidden readOnly autoComplete="username" value={username} />
      <Field
        label={intl.formatMessage({ id: 'choosePassword.new', defaultMessage: 'New password' })}
        error={errors.newPassword}
      >
        <input
          type="password"
          autoComplete="new-password"
          autoFocus
          value={newPassword}
          onChange={(e) => setNewPassword(e.target.value)}
        />
      </Field>
      <Field
        label={intl.formatMessage({
          id: 'choosePassword.again',
          defaultMessage: 'New password again',
        })}
        error={errors.repeat}
      >
        <input
          type="password"
          autoComplete="new-password"
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
        />
      </Field>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy
            ? intl.formatMessage({
                id: 'choosePassword.busy',
                defaultMessage: 'Setting your password…',
              })
            : intl.formatMessage({
                id: 'choosePassword.submit',
                defaultMessage: 'Set password and sign in',
              })}
        </button>
        <button type="button" className="button button-quiet" onClick={onBack}>
          {intl.formatMessage({ id: 'choosePassword.back', defaultMessage: 'Back' })}
        </button>
      </div>
    </form>
  );
}
