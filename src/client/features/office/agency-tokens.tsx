import { useCallback, useEffect, useState } from 'react';
import type { AgencyTokenRecord } from '#shared';
import { useI18n } from '../../lib/i18n';
import { Banner } from '../../ui/banner';
import {
  createAgencyToken,
  listAgencyTokens,
  revokeAgencyToken,
  type OfficeFailure,
} from './office-api';
import { officeFailureText } from './office-failure';
import { ShownOnce } from './shown-once';

/**
 * The agency's tokens for scripts and other systems (contract §7): they act with a manager's
 * rights until revoked. A new token is shown once; the list never holds one.
 */
export function AgencyTokens() {
  const intl = useI18n();
  const t = intl.formatMessage;
  const [tokens, setTokens] = useState<AgencyTokenRecord[] | null>(null);
  const [failure, setFailure] = useState<OfficeFailure | null>(null);
  const [issued, setIssued] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    const result = await listAgencyTokens();
    if (result.ok) setTokens(result.value.rows);
    else setFailure(result.failure);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const run = async (action: () => Promise<void>) => {
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
      else setFailure(result.failure);
    });
  const revoke = (id: number) =>
    run(async () => {
      const result = await revokeAgencyToken(id);
      if (!result.ok) setFailure(result.failure);
    });

  return (
    <section className="office-section" aria-labelledby="office-tokens">
      <h2 id="office-tokens">{t({ id: 'office.tokens', defaultMessage: 'Agency tokens' })}</h2>
      <p className="muted">
        {t({
          id: 'office.tokens.about',
          defaultMessage:
            'For scripts and other systems: a token acts with a manager’s rights until it is revoked.',
        })}
      </p>
      {failure ? <Banner tone="error">{officeFailureText(intl, failure)}</Banner> : null}
      {issued ? (
        <ShownOnce
          label={t({ id: 'office.tokens.new', defaultMessage: 'New agency token' })}
          secret={issued}
          note={t({
            id: 'office.tokens.newNote',
            defaultMessage: 'Store it where the script or system keeps its secrets.',
          })}
          onDone={() => setIssued(null)}
        />
      ) : null}
      {tokens === null ? (
        <p>{t({ id: 'office.loading', defaultMessage: 'Loading…' })}</p>
      ) : tokens.length === 0 ? (
        <p>{t({ id: 'office.tokens.none', defaultMessage: 'No agency tokens.' })}</p>
      ) : (
        <ul
          className="list"
          aria-label={t({ id: 'office.tokens', defaultMessage: 'Agency tokens' })}
        >
          {tokens.map((token) => (
            <li key={token.id} className="list-item person">
              <div className="person-who">
                <strong>
                  {t({ id: 'office.tokens.name', defaultMessage: 'Token {id}' }, { id: token.id })}
                </strong>
                <span className="muted">
                  {token.created_by
                    ? t(
                        {
                          id: 'office.tokens.createdBy',
                          defaultMessage: 'Created {when} by {who}',
                        },
                        {
                          when: intl.formatDate(token.created_at, {
                            dateStyle: 'medium',
                            timeStyle: 'short',
                          }),
                          who: token.created_by.full_name ?? token.created_by.username,
                        },
                      )
                    : t(
                        { id: 'office.tokens.created', defaultMessage: 'Created {when}' },
                        {
                          when: intl.formatDate(token.created_at, {
                            dateStyle: 'medium',
                            timeStyle: 'short',
                          }),
                        },
                      )}
                </span>
              </div>
              <div className="person-actions">
                <button
                  type="button"
                  className="button button-danger"
                  disabled={busy}
                  aria-label={t(
                    { id: 'office.tokens.revokeLabel', defaultMessage: 'Revoke token {id}' },
                    { id: token.id },
                  )}
                  onClick={() => void revoke(token.id)}
                >
                  {t({ id: 'office.tokens.revoke', defaultMessage: 'Revoke' })}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="office-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void create()}>
          {t({ id: 'office.tokens.create', defaultMessage: 'Create agency token' })}
        </button>
      </div>
    </section>
  );
}
