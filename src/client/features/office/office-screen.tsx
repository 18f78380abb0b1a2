import { useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { UserRecord } from '#shared';
import { useI18n } from '../../lib/i18n';
import { Banner } from '../../ui/banner';
import { AddPersonForm } from './add-person-form';
import { AgencyTokens } from './agency-tokens';
import { listPeople, type OfficeFailure } from './office-api';
import { officeFailureText } from './office-failure';
import { PeopleList } from './people-list';
import './office.css';

/**
 * The Office (managers only): the agency's people, its agency tokens, and the way to the site
 * import and the changes list. Everything here is read from and written to the server at once
 * (never queued on the tablet), so it needs a connection.
 */
export function OfficeScreen({
  isManager,
  currentUserId,
}: {
  isManager: boolean;
  currentUserId: number | null;
}) {
  const t = useI18n().formatMessage;
  const title = t({ id: 'office.title', defaultMessage: 'Office' });
  if (!isManager) {
    return (
      <section className="screen">
        <h1>{title}</h1>
        <Banner tone="info">
          {t({
            id: 'office.managersOnly',
            defaultMessage:
              'The Office is for managers only. Ask a manager of your agency if you need something here.',
          })}
        </Banner>
      </section>
    );
  }
  return (
    <section className="screen office">
      <h1>{title}</h1>
      <nav className="office-links" aria-label={title}>
        <Link href="/office/import" className="button">
          {t({ id: 'office.importSites', defaultMessage: 'Import sites' })}
        </Link>
        <Link href="/office/history" className="button">
          {t({ id: 'office.changes', defaultMessage: 'Changes' })}
        </Link>
      </nav>
      <People currentUserId={currentUserId} />
      <AgencyTokens />
    </section>
  );
}

function People({ currentUserId }: { currentUserId: number | null }) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const [people, setPeople] = useState<UserRecord[] | null>(null);
  const [failure, setFailure] = useState<OfficeFailure | null>(null);
  const load = useCallback(async () => {
    const result = await listPeople();
    if (result.ok) {
      setPeople(result.value.rows);
      setFailure(null);
    } else setFailure(result.failure);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section className="office-section" aria-labelledby="office-people">
      <h2 id="office-people">{t({ id: 'office.people', defaultMessage: 'People' })}</h2>
      {failure ? (
        <Banner
          tone="error"
          actions={
            <button type="button" className="button" onClick={() => void load()}>
              {t({ id: 'office.tryAgain', defaultMessage: 'Try again' })}
            </button>
          }
        >
          {officeFailureText(intl, failure)}
        </Banner>
      ) : null}
      <AddPersonForm onAdded={() => void load()} />
      {people === null ? (
        failure ? null : (
          <p>{t({ id: 'office.loading', defaultMessage: 'Loading…' })}</p>
        )
      ) : (
        <PeopleList people={people} currentUserId={currentUserId} onChanged={() => void load()} />
      )}
    </section>
  );
}
