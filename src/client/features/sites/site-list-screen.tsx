import { useDeferredValue, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { matchesSite, useSites } from './use-sites';

const SHOWN = 200;

/** Sites: search by code or name, the map of the agency's sites, tap one for details. */
export function SiteListScreen({ map }: { map?: ReactNode }) {
  const sites = useSites();
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const matches = (sites ?? []).filter((s) => matchesSite(s, deferred));
  return (
    <section className="screen">
      <div className="screen-head">
        <h1>Sites</h1>
        <Link href="/sites/new" className="button button-primary">
          New site
        </Link>
      </div>
      {map ? <div className="map-panel">{map}</div> : null}
      <div className="field">
        <label htmlFor="site-search">Search sites</label>
        <input
          id="site-search"
          type="search"
          placeholder="Code or name"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      {sites === undefined ? (
        <p>Loading sites…</p>
      ) : (
        <>
          <p className="muted" aria-live="polite">
            {matches.length === sites.length
              ? `${sites.length} sites`
              : `${matches.length} of ${sites.length} sites`}
          </p>
          <ul className="list" aria-label="Sites">
            {matches.slice(0, SHOWN).map((s) => (
              <li key={s.localId}>
                <Link href={`/sites/${s.localId}`} className="list-item">
                  <span className="code">{s.code}</span> <span>{s.name}</span>
                  {s.syncState !== 'synced' ? (
                    <span className="tag">
                      {s.syncState === 'failed' ? 'needs fixing' : 'not sent'}
                    </span>
                  ) : null}
                </Link>
              </li>
            ))}
          </ul>
          {matches.length > SHOWN ? (
            <p className="muted">Showing the first {SHOWN}: search to narrow down.</p>
          ) : null}
        </>
      )}
    </section>
  );
}
