import { useDeferredValue, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { useSiteSearch } from './use-sites';

/** Rows drawn at once: a list of 20,000 rows is itself a long task, and nobody scrolls it. */
const SHOWN = 50;

const count = (n: number) => n.toLocaleString('en-US');

/** Sites: search by code or name, the map of the agency's sites, tap one for details. */
export function SiteListScreen({ map }: { map?: ReactNode }) {
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const { found, failure } = useSiteSearch(deferred, SHOWN);
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
      {found === undefined ? (
        <p role={failure ? 'alert' : undefined}>
          {failure
            ? `The sites on this tablet could not be read (${failure}): reload the page.`
            : 'Loading sites…'}
        </p>
      ) : (
        <>
          <p className="muted" aria-live="polite">
            {found.matched === found.total
              ? `${count(found.total)} sites`
              : `${count(found.matched)} of ${count(found.total)} sites`}
          </p>
          <ul className="list" aria-label="Sites">
            {found.shown.map((s) => (
              <li key={s.id}>
                <Link href={`/sites/${s.id}`} className="list-item">
                  <span className="code">{s.code}</span> <span>{s.name}</span>
                  {s.state !== 'synced' ? (
                    <span className="tag">
                      {s.state === 'failed' ? 'needs fixing' : 'not sent'}
                    </span>
                  ) : null}
                </Link>
              </li>
            ))}
          </ul>
          {found.matched > found.shown.length ? (
            <p className="muted">
              Showing {count(found.shown.length)} of {count(found.matched)}: type a code or part of
              a name to narrow down.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
