import { useState } from 'react';
import type { UserRecord, UserUpdate } from '#shared';
import type { IntlShape } from 'react-intl';
import { useI18n } from '../../lib/i18n';
import { Banner } from '../../ui/banner';
import { resetPassword, updatePerson, type OfficeFailure } from './office-api';
import { officeFailureText } from './office-failure';
import { ShownOnce } from './shown-once';

function roleWord(intl: IntlShape, role: UserRecord['role']): string {
  return role === 'manager'
    ? intl.formatMessage({ id: 'office.role.manager', defaultMessage: 'Manager' })
    : intl.formatMessage({ id: 'office.role.technician', defaultMessage: 'Technician' });
}

function lastSignIn(intl: IntlShape, iso: string | null): string {
  if (!iso)
    return intl.formatMessage({ id: 'office.neverSignedIn', defaultMessage: 'Never signed in' });
  return intl.formatMessage(
    { id: 'office.lastSignIn', defaultMessage: 'Last sign-in {when}' },
    { when: intl.formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' }) },
  );
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
  const intl = useI18n();
  const t = intl.formatMessage;
  const [failure, setFailure] = useState<OfficeFailure | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [reset, setReset] = useState<{ username: string; password: string } | null>(null);

  const act = async (person: UserRecord, run: () => ReturnType<typeof updatePerson>) => {
    setFailure(null);
    setBusyId(person.id);
    try {
      const result = await run();
      if (!result.ok) setFailure(result.failure);
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
      if (!result.ok) setFailure(result.failure);
      else setReset({ username: person.username, password: result.value.temporary_password });
    } finally {
      setBusyId(null);
    }
  };

  return (
    <>
      {failure ? <Banner tone="error">{officeFailureText(intl, failure)}</Banner> : null}
      {reset ? (
        <ShownOnce
          label={t(
            {
              id: 'office.temporaryPasswordFor',
              defaultMessage: 'Temporary password for {username}',
            },
            { username: reset.username },
          )}
          secret={reset.password}
          note={t({
            id: 'office.resetNote',
            defaultMessage:
              'Their sign-ins have ended. At their next sign-in they choose a new password; this one stops working after 7 days.',
          })}
          onDone={() => setReset(null)}
        />
      ) : null}
      <ul className="list people" aria-label={t({ id: 'office.people', defaultMessage: 'People' })}>
        {people.map((p) => {
          const me = p.id === currentUserId;
          const busy = busyId === p.id;
          const roleAction =
            p.role === 'manager'
              ? t({ id: 'office.makeTechnician', defaultMessage: 'Make technician' })
              : t({ id: 'office.makeManager', defaultMessage: 'Make manager' });
          const activeAction = p.active
            ? t({ id: 'office.deactivate', defaultMessage: 'Deactivate' })
            : t({ id: 'office.reactivate', defaultMessage: 'Reactivate' });
          const resetAction = t({ id: 'office.resetPassword', defaultMessage: 'Reset password' });
          const forPerson = (action: string) =>
            t(
              { id: 'office.actionFor', defaultMessage: '{action}: {username}' },
              { action, username: p.username },
            );
          return (
            <li key={p.id} className={p.active ? 'list-item person' : 'list-item person inactive'}>
              <div className="person-who">
                <strong>{p.full_name ?? p.username}</strong>
                <span className="muted">
                  {me
                    ? t(
                        { id: 'office.you', defaultMessage: '{username} (you)' },
                        { username: p.username },
                      )
                    : p.username}
                </span>
              </div>
              <div className="person-facts">
                <span className="tag">{roleWord(intl, p.role)}</span>
                <span className={p.active ? 'tag' : 'tag tag-off'}>
                  {p.active
                    ? t({ id: 'office.active', defaultMessage: 'Active' })
                    : t({ id: 'office.deactivated', defaultMessage: 'Deactivated' })}
                </span>
                <span className="muted">{lastSignIn(intl, p.last_login)}</span>
              </div>
              <div className="person-actions">
                <button
                  type="button"
                  className="button"
                  disabled={busy || me}
                  aria-label={forPerson(roleAction)}
                  onClick={() =>
                    void update(p, { role: p.role === 'manager' ? 'user' : 'manager' })
                  }
                >
                  {roleAction}
                </button>
                <button
                  type="button"
                  className="button"
                  disabled={busy}
                  aria-label={forPerson(resetAction)}
                  onClick={() => void resetFor(p)}
                >
                  {resetAction}
                </button>
                <button
                  type="button"
                  className={p.active ? 'button button-danger' : 'button'}
                  disabled={busy || me}
                  aria-label={forPerson(activeAction)}
                  onClick={() => void update(p, { active: !p.active })}
                >
                  {activeAction}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}
