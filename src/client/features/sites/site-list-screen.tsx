import { useDeferredValue, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { useI18n } from '../../lib/i18n';
import { useSiteSearch } from './use-sites';

/** Rows drawn at once: a list of 20,000 rows is itself a long task, and nobody scrolls it. */
const SHOWN = 50;

/** Sites: search by code or name, the map of the agency's sites, tap one for details. */
export function SiteListScreen({ map }: { map?: ReactNode }) {
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const { found, failure } = useSiteSearch(deferred, SHOWN);
  const intl = useI18n();
  const t = intl.formatMessage;
  return (
    <section className="screen">
      <div className="screen-head">
        <h1>{t({ id: 'siteList.title', defaultMessage: 'Sites' })}</h1>
        <Link href="/sites/new" className="button button-primary">
          {t({ id: 'sites.newTitle', defaultMessage: 'New site' })}
        </Link>
      </div>
      {map ? <div className="map-panel">{map}</div> : null}
      <div className="field">
        <label htmlFor="site-search">
          {t({ id: 'siteList.search', defaultMessage: 'Search sites' })}
        </label>
        <input
          id="site-search"
          type="search"
          placeholder={t({ id: 'sitePicker.placeholder', defaultMessage: 'Code or name' })}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      {found === undefined ? (
        <p role={failure ? 'alert' : undefined}>
          {failure
            ? t(
                {
                  id: 'siteList.failed',
                  defaultMessage:
                    'The sites on this tablet could not be read ({failure}): reload the page.',
                },
                { failure },
              )
            : t({ id: 'siteList.loading', defaultMessage: 'Loading sites…' })}
        </p>
      ) : (
        <>
          <p className="muted" aria-live="polite">
            {found.matched === found.total
              ? t(
                  {
                    id: 'siteList.count',
                    defaultMessage: '{total, plural, one {# site} other {# sites}}',
                  },
                  { total: found.total },
                )
              : t(
                  {
                    id: 'siteList.matched',
                    defaultMessage:
                      '{matched, number} of {total, plural, one {# site} other {# sites}}',
                  },
                  { matched: found.matched, total: found.total },
                )}
          </p>
          <ul className="list" aria-label={t({ id: 'siteList.title', defaultMessage: 'Sites' })}>
            {found.shown.map((s) => (
              <li key={s.id}>
                <Link href={`/sites/${s.id}`} className="list-item">
                  <span className="code">{s.code}</span> <span>{s.name}</span>
                  {s.state !== 'synced' ? (
                    <span className="tag">
                      {s.state === 'failed'
                        ? t({ id: 'siteList.needsFixing', defaultMessage: 'needs fixing' })
                        : t({ id: 'siteList.notSent', defaultMessage: 'not sent' })}
                    </span>
                  ) : null}
                </Link>
              </li>
            ))}
          </ul>
          {found.matched > found.shown.length ? (
            <p className="muted">
              {t(
                {
                  id: 'siteList.showing',
                  defaultMessage:
                    'Showing {shown, number} of {matched, number}: type a code or part of a name to narrow down.',
                },
                { shown: found.shown.length, matched: found.matched },
              )}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
