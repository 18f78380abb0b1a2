import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { loginRequest, type LoginRequest, type SessionInfo } from '#shared/schemas/auth';
import { sayIn, translateShared, useI18n } from '../../lib/i18n';
import { signInFormTakenOver } from '../../lib/prerendered-sign-in';
import { Banner } from '../../ui/banner';
import { Field } from '../../ui/form/field';
import { ChoosePasswordForm } from './choose-password-form';
import { signIn } from './session-api';

type Props = {
  /** When set (the session expired), the same user signs in again: the username is fixed. */
  username?: string;
  onSignedIn: (session: SessionInfo) => void | Promise<void>;
  /**
   * Called as the username and password are sent, before the answer: the caller may start
   * loading what a sign-in opens meanwhile.
   */
  onSending?: () => void;
};

/** Username and password against the BFF; the password is never stored. */
export function SignInForm({ username, onSignedIn, onSending }: Props) {
  const { register, handleSubmit, formState, setError, resetField } = useForm<LoginRequest>({
    resolver: zodResolver(loginRequest),
    // No default for what the person types: react-hook-form then takes each field's value from
    // the page as it registers it, so what was typed into the sign-in screen index.html painted
    // before the scripts ran (lib/prerendered-sign-in) is kept when React takes the form over.
    defaultValues: username ? { username } : {},
  });
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => signInFormTakenOver(formRef.current), []);
  const intl = useI18n();
  const [failure, setFailure] = useState<string | null>(null);
  /** Set after a sign-in with a temporary password: the "choose your password" step shows. */
  const [temporary, setTemporary] = useState<LoginRequest | null>(null);
  const checkedUser = async (session: SessionInfo) => {
    if (username && session.user.username.toLowerCase() !== username.toLowerCase()) {
      setFailure(
        intl.formatMessage(
          {
            id: 'signIn.otherUser',
            defaultMessage:
              'Signed in as {signedIn}, but this tablet session belongs to {username}. Sign out first to switch users.',
          },
          { signedIn: session.user.username, username },
        ),
      );
      return;
    }
    await onSignedIn(session);
  };
  const submit = handleSubmit(async (values) => {
    setFailure(null);
    // The session's request goes first: what onSending fetches must not delay it.
    const answer = signIn(values);
    onSending?.();
    const result = await answer;
    if (!result.ok) {
      if ('choosePassword' in result) {
        setTemporary(values);
        return;
      }
      setFailure(sayIn(intl, result.message));
      if (result.field === 'password') {
        resetField('password', { defaultValue: '' });
        setError('password', {
          type: 'server',
          message: intl.formatMessage({
            id: 'signIn.wrongPassword',
            defaultMessage: 'Wrong username or password',
          }),
        });
      }
      return;
    }
    await checkedUser(result.session);
  });
  if (temporary) {
    return (
      <>
        {failure ? <Banner tone="error">{failure}</Banner> : null}
        <ChoosePasswordForm
          username={temporary.username}
          temporaryPassword={temporary.password}
          onSignedIn={checkedUser}
          onBack={() => {
            setTemporary(null);
            setFailure(null);
          }}
        />
      </>
    );
  }
  return (
    <form
      ref={formRef}
      className="form"
      // Never a GET: were the page's scripts refused, the password must not land in the URL.
      method="post"
      onSubmit={submit}
      noValidate
      aria-label={intl.formatMessage({ id: 'signIn.formName', defaultMessage: 'Sign in' })}
    >
      {failure ? <Banner tone="error">{failure}</Banner> : null}
      {username ? (
        // Signing in again: the user is fixed, so it is said, not offered as a control. A modal
        // sheet focuses its first control, which must be Password so a tablet opens its keyboard.
        // The hidden field still tells password managers whose password this is.
        <p>
          {intl.formatMessage(
            { id: 'signIn.signedInAs', defaultMessage: 'Signed in as <b>{username}</b>' },
            { username, b: (chunks) => <strong>{chunks}</strong> },
          )}
          <input type="text" hidden readOnly autoComplete="username" {...register('username')} />
        </p>
      ) : (
        <Field
          label={intl.formatMessage({ id: 'signIn.username', defaultMessage: 'Username' })}
          error={translateShared(intl, formState.errors.username?.message)}
        >
          <input autoComplete="username" autoCapitalize="none" {...register('username')} />
        </Field>
      )}
      <Field
        label={intl.formatMessage({ id: 'signIn.password', defaultMessage: 'Password' })}
        error={translateShared(intl, formState.errors.password?.message)}
      >
        <input
          type="password"
          autoComplete="current-password"
          // Where the dialog cannot focus by itself (no showModal), the password still gets it.
          autoFocus={Boolean(username)}
          {...register('password')}
        />
      </Field>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={formState.isSubmitting}>
          {formState.isSubmitting
            ? intl.formatMessage({ id: 'signIn.busy', defaultMessage: 'Signing in…' })
            : intl.formatMessage({ id: 'signIn.submit', defaultMessage: 'Sign in' })}
        </button>
      </div>
    </form>
  );
}
