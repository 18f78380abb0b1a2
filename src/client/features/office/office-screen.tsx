import { useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { UserRecord } from '#shared';
import { Banner } from '../../ui/banner';
import { AddPersonForm } from './add-person-form';
import { AgencyTokens } from './agency-tokens';
import { listPeople } from './office-api';
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
  if (!isManager) {
    return (
      <section className="screen">
        <h1>Office</h1>
        <Banner tone="info">
          The Office is for managers only. Ask a manager of your agency if you need something here.
        </Banner>
      </section>
    );
  }
  return (
    <section className="screen office">
      <h1>Office</h1>
      <nav className="office-links" aria-label="Office">
        <Link href="/office/import" className="button">
          Import sites
        </Link>
        <Link href="/office/history" className="button">
          Changes
        </Link>
      </nav>
      <People currentUserId={currentUserId} />
      <AgencyTokens />
    </section>
  );
}

function People({ currentUserId }: { currentUserId: number | null }) {
  const [people, setPeople] = useState<UserRecord[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const load = useCallback(async () => {
    const result = await listPeople();
    if (result.ok) {
      setPeople(result.value.rows);
      setFailure(null);
    } else setFailure(result.message);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section className="office-section" aria-labelledby="office-people">
      <h2 id="office-people">People</h2>
      {failure ? (
        <Banner
          tone="error"
          actions={
            <button type="button" className="button" onClick={() => void load()}>
              Try again
            </button>
          }
        >
          {failure}
        </Banner>
      ) : null}
      <AddPersonForm onAdded={() => void load()} />
      {people === null ? (
        failure ? null : (
          <p>Loading…</p>
        )
      ) : (
        <PeopleList people={people} currentUserId={currentUserId} onChanged={() => void load()} />
      )}
    </section>
  );
}
