import { useState, type FormEvent } from 'react';
import { userCreate, type UserRole } from '#shared';
import { Banner } from '../../ui/banner';
import { Field } from '../../ui/form/field';
import { addPerson } from './office-api';
import { ShownOnce } from './shown-once';

type Errors = Partial<Record<'username' | 'full_name' | 'role', string>>;

/**
 * Adds a person to the agency. The temporary password the server answers is shown once, big,
 * with a Copy button; what was typed stays on any error, with the server's words beside the field.
 */
export function AddPersonForm({ onAdded }: { onAdded: () => void }) {
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
        next[key] ??= issue.message;
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
        for (const f of result.fields) next[f.path as keyof Errors] ??= f.message;
        setErrors(next);
        setFailure(result.message);
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
        label={`Temporary password for ${added.username}`}
        secret={added.password}
        note="Give it to them in person. At their first sign-in they choose their own password; it stops working after 7 days."
        onDone={() => setAdded(null)}
      />
    );
  }
  return (
    <form className="form card" onSubmit={submit} noValidate aria-label="Add a person">
      <h3>Add a person</h3>
      {failure ? <Banner tone="error">{failure}</Banner> : null}
      <div className="form-grid">
        <Field label="Username" error={errors.username}>
          <input
            autoComplete="off"
            autoCapitalize="none"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </Field>
        <Field label="Full name" error={errors.full_name}>
          <input
            autoComplete="off"
            value={fullName}
            onChange={(e) => setFullName(e.target.value)}
          />
        </Field>
        <Field label="Role" error={errors.role}>
          <select value={role} onChange={(e) => setRole(e.target.value as UserRole)}>
            <option value="user">Technician</option>
            <option value="manager">Manager</option>
          </select>
        </Field>
      </div>
      <div className="office-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add person'}
        </button>
      </div>
    </form>
  );
}
