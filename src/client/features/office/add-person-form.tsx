import { useState, type FormEvent } from 'react';
import { userCreate, type UserRole } from '#shared';
import { serverFieldMessage, translateShared, useI18n } from '../../lib/i18n';
import { Banner } from '../../ui/banner';
import { Field } from '../../ui/form/field';
import { addPerson } from './office-api';
import { officeFailureText } from './office-failure';
import { ShownOnce } from './shown-once';

type Errors = Partial<Record<'username' | 'full_name' | 'role', string>>;

/**
 * Adds a person to the agency. The temporary password the server answers is shown once, big,
 * with a Copy button; what was typed stays on any error, with the server's words beside the field.
 */
export function AddPersonForm({ onAdded }: { onAdded: () => void }) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const [username, setUsername] = useState('');
  const [fullName, setFullName] = useState('');
  const [role, setRole] = useState<UserRole>('user');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [added, setAdded] = useState<{ username: string; password: string } | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const body = { username, full_name: fullName, role };
    const checked = userCreate.safeParse(body);
    if (!checked.success) {
      const next: Errors = {};
      for (const issue of checked.error.issues) {
        const key = String(issue.path[0]) as keyof Errors;
        next[key] ??= translateShared(intl, issue.message);
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const result = await addPerson(checked.data);
      if (!result.ok) {
        const next: Errors = {};
        for (const f of result.fields)
          next[f.path as keyof Errors] ??= serverFieldMessage(
            intl,
            result.failure.code,
            translateShared(intl, f.message) ?? f.message,
          );
        setErrors(next);
        setFailure(officeFailureText(intl, result.failure, { username: checked.data.username }));
        return;
      }
      setAdded({ username: result.value.username, password: result.value.temporary_password });
      setUsername('');
      setFullName('');
      setRole('user');
      onAdded();
    } finally {
      setBusy(false);
    }
  };

  if (added) {
    return (
      <ShownOnce
        label={t(
          {
            id: 'office.temporaryPasswordFor',
            defaultMessage: 'Temporary password for {username}',
          },
          { username: added.username },
        )}
        secret={added.password}
        note={t({
          id: 'office.addedNote',
          defaultMessage:
            'Give it to them in person. At their first sign-in they choose their own password; it stops working after 7 days.',
        })}
        onDone={() => setAdded(null)}
      />
    );
  }
  const title = t({ id: 'office.addPerson', defaultMessage: 'Add a person' });
  return (
    <form className="form card" onSubmit={submit} noValidate aria-label={title}>
      <h3>{title}</h3>
      {failure ? <Banner tone="error">{failure}</Banner> : null}
      <div className="form-grid">
        <Field
          label={t({ id: 'office.username', defaultMessage: 'Username' })}
          error={errors.username}
        >
          <input
            autoComplete="off"
            autoCapitalize="none"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </Field>
        <Field
          label={t({ id: 'office.fullName', defaultMessage: 'Full name' })}
          error={errors.full_name}
        >
          <input
            autoComplete="off"
            value={fullName}
            onChange={(e) => setFullName(e.target.value)}
          />
        </Field>
        <Field label={t({ id: 'office.role', defaultMessage: 'Role' })} error={errors.role}>
          <select value={role} onChange={(e) => setRole(e.target.value as UserRole)}>
            <option value="user">
              {t({ id: 'office.role.technician', defaultMessage: 'Technician' })}
            </option>
            <option value="manager">
              {t({ id: 'office.role.manager', defaultMessage: 'Manager' })}
            </option>
          </select>
        </Field>
      </div>
      <div className="office-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy
            ? t({ id: 'office.adding', defaultMessage: 'Adding…' })
            : t({ id: 'office.addPersonButton', defaultMessage: 'Add person' })}
        </button>
      </div>
    </form>
  );
}
