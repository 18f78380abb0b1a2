import { useCallback, useEffect, useState } from 'react';
import type { AgencyTokenRecord } from '#shared';
import { Banner } from '../../ui/banner';
import { createAgencyToken, listAgencyTokens, revokeAgencyToken } from './office-api';
import { ShownOnce } from './shown-once';

/**
 * The agency's tokens for scripts and other systems (contract §7): they act with a manager's
 * rights until revoked. A new token is shown once; the list never holds one.
 */
export function AgencyTokens() {
  const [tokens, setTokens] = useState<AgencyTokenRecord[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [issued, setIssued] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    const result = await listAgencyTokens();
    if (result.ok) setTokens(result.value.rows);
    else setFailure(result.message);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const run = async (action: () => Promise<{ ok: boolean; message?: string } | void>) => {
    setFailure(null);
    setBusy(true);
    try {
      await action();
      await load();
    } finally {
      setBusy(false);
    }
  };
  const create = () =>
    run(async () => {
      const result = await createAgencyToken();
      if (result.ok) setIssued(result.value.token);
      else setFailure(result.message);
    });
  const revoke = (id: number) =>
    run(async () => {
      const result = await revokeAgencyToken(id);
      if (!result.ok) setFailure(result.message);
    });

  return (
    <section className="office-section" aria-labelledby="office-tokens">
      <h2 id="office-tokens">Agency tokens</h2>
      <p className="muted">
        For scripts and other systems: a token acts with a manager’s rights until it is revoked.
      </p>
      {failure ? <Banner tone="error">{failure}</Banner> : null}
      {issued ? (
        <ShownOnce
          label="New agency token"
          secret={issued}
          note="Store it where the script or system keeps its secrets."
          onDone={() => setIssued(null)}
        />
      ) : null}
      {tokens === null ? (
        <p>Loading…</p>
      ) : tokens.length === 0 ? (
        <p>No agency tokens.</p>
      ) : (
        <ul className="list" aria-label="Agency tokens">
          {tokens.map((t) => (
            <li key={t.id} className="list-item person">
              <div className="person-who">
                <strong>Token {t.id}</strong>
                <span className="muted">
                  Created{' '}
                  {new Date(t.created_at).toLocaleString(undefined, {
                    dateStyle: 'medium',
                    timeStyle: 'short',
                  })}
                  {t.created_by ? ` by ${t.created_by.full_name ?? t.created_by.username}` : ''}
                </span>
              </div>
              <div className="person-actions">
                <button
                  type="button"
                  className="button button-danger"
                  disabled={busy}
                  aria-label={`Revoke token ${t.id}`}
                  onClick={() => void revoke(t.id)}
                >
                  Revoke
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="office-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void create()}>
          Create agency token
        </button>
      </div>
    </section>
  );
}
