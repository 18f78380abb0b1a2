import { useState } from 'react';
import type { UserRecord, UserUpdate } from '#shared';
import { Banner } from '../../ui/banner';
import { resetPassword, updatePerson } from './office-api';
import { ShownOnce } from './shown-once';

const ROLE_WORDS = { manager: 'Manager', user: 'Technician' } as const;

function lastSignIn(iso: string | null): string {
  if (!iso) return 'Never signed in';
  return `Last sign-in ${new Date(iso).toLocaleString(undefined, {
    dateStyle: 'medium',
    timeStyle: 'short',
  })}`;
}

/**
 * The agency's people, each with role, active and last sign-in, and the manager's actions:
 * change role, reset password, deactivate / reactivate. The server decides (own account, last
 * manager) and its words are shown.
 */
export function PeopleList({
  people,
  currentUserId,
  onChanged,
}: {
  people: UserRecord[];
  currentUserId: number | null;
  onChanged: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [reset, setReset] = useState<{ username: string; password: string } | null>(null);

  const act = async (person: UserRecord, run: () => ReturnType<typeof updatePerson>) => {
    setFailure(null);
    setBusyId(person.id);
    try {
      const result = await run();
      if (!result.ok) setFailure(result.message);
      else onChanged();
    } finally {
      setBusyId(null);
    }
  };
  const update = (person: UserRecord, body: UserUpdate) =>
    act(person, () => updatePerson(person.id, body));
  const resetFor = async (person: UserRecord) => {
    setFailure(null);
    setBusyId(person.id);
    try {
      const result = await resetPassword(person.id);
      if (!result.ok) setFailure(result.message);
      else setReset({ username: person.username, password: result.value.temporary_password });
    } finally {
      setBusyId(null);
    }
  };

  return (
    <>
      {failure ? <Banner tone="error">{failure}</Banner> : null}
      {reset ? (
        <ShownOnce
          label={`Temporary password for ${reset.username}`}
          secret={reset.password}
          note="Their sign-ins have ended. At their next sign-in they choose a new password; this one stops working after 7 days."
          onDone={() => setReset(null)}
        />
      ) : null}
      <ul className="list people" aria-label="People">
        {people.map((p) => {
          const me = p.id === currentUserId;
          const busy = busyId === p.id;
          return (
            <li key={p.id} className={p.active ? 'list-item person' : 'list-item person inactive'}>
              <div className="person-who">
                <strong>{p.full_name ?? p.username}</strong>
                <span className="muted">
                  {p.username}
                  {me ? ' (you)' : ''}
                </span>
              </div>
              <div className="person-facts">
                <span className="tag">{ROLE_WORDS[p.role]}</span>
                <span className={p.active ? 'tag' : 'tag tag-off'}>
                  {p.active ? 'Active' : 'Deactivated'}
                </span>
                <span className="muted">{lastSignIn(p.last_login)}</span>
              </div>
              <div className="person-actions">
                <button
                  type="button"
                  className="button"
                  disabled={busy || me}
                  aria-label={`${p.role === 'manager' ? 'Make technician' : 'Make manager'}: ${p.username}`}
                  onClick={() =>
                    void update(p, { role: p.role === 'manager' ? 'user' : 'manager' })
                  }
                >
                  {p.role === 'manager' ? 'Make technician' : 'Make manager'}
                </button>
                <button
                  type="button"
                  className="button"
                  disabled={busy}
                  aria-label={`Reset password: ${p.username}`}
                  onClick={() => void resetFor(p)}
                >
                  Reset password
                </button>
                <button
                  type="button"
                  className={p.active ? 'button button-danger' : 'button'}
                  disabled={busy || me}
                  aria-label={`${p.active ? 'Deactivate' : 'Reactivate'}: ${p.username}`}
                  onClick={() => void update(p, { active: !p.active })}
                >
                  {p.active ? 'Deactivate' : 'Reactivate'}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}
