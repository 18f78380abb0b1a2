import { useEffect, useMemo, useState } from 'react';
import { ZERO_SITE_CODE } from '#shared';
import type { SiteCheck } from '../../lib/site-index';
import { distanceMeters } from '../../lib/geo';
import { distanceIn, useI18n } from '../../lib/i18n';
import { smallest } from '../../lib/smallest';
import { useGps, type GpsFailure } from '../../lib/use-gps';

const SHOWN = 12;

function coordsOf(site: SiteCheck): { lat: number; lon: number } | null {
  const c = (site.data.shape as { coordinates?: [number, number] } | undefined)?.coordinates;
  return c ? { lon: c[0], lat: c[1] } : null;
}

/**
 * Choose the collection's site: nearest first when the GPS has a position, search by code or
 * name, or the Zero Site for a one-off location.
 */
export function SitePicker({
  sites,
  value,
  onChange,
  error,
  locked = false,
}: {
  sites: readonly SiteCheck[];
  value: string;
  onChange: (localId: string) => void;
  error?: string | null;
  /**
   * The site is shown, not changed: a collection someone else entered, which only its author or a
   * manager may move (contract §7).
   */
  locked?: boolean;
}) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const zeroLabel = t({
    id: 'sitePicker.zeroSite',
    defaultMessage: 'Zero Site (one-off location)',
  });
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(value === '' && !locked);
  // A site set from outside the picker (a restored draft, Discard back to the saved site) is
  // shown as chosen, like one tapped in the list; cleared, the search opens again.
  const [shownFor, setShownFor] = useState(value);
  if (value !== shownFor) {
    setShownFor(value);
    setOpen(value === '' && !locked);
  }
  const gps = useGps();
  const { locate } = gps;
  useEffect(() => {
    // Nearest-first ordering when a position is available; without one the list is by code.
    if (open) void locate();
  }, [open, locate]);
  const selected = sites.find((s) => s.localId === value);
  const zero = sites.find((s) => s.code === ZERO_SITE_CODE);
  const candidates = useMemo(() => {
    const q = query.trim().toLowerCase();
    const here = gps.fix;
    // One pass over every site (20,000 at district scale), a place read only with a position.
    const matching: Array<{ site: SiteCheck; distance: number | null }> = [];
    for (const s of sites) {
      if (s.code === ZERO_SITE_CODE || s.deleted) continue;
      if (q !== '' && !s.code.includes(q) && !s.name.toLowerCase().includes(q)) continue;
      const c = here ? coordsOf(s) : null;
      matching.push({ site: s, distance: here && c ? distanceMeters(here, c) : null });
    }
    return smallest(
      matching,
      SHOWN,
      (a, b) =>
        (a.distance ?? Infinity) - (b.distance ?? Infinity) ||
        a.site.code.localeCompare(b.site.code),
    );
  }, [sites, query, gps.fix]);

  if (!open && selected) {
    return (
      <div className="field">
        <span className="label">{t({ id: 'sitePicker.site', defaultMessage: 'Site' })}</span>
        <div className="row">
          <strong data-testid="chosen-site">
            {selected.code === ZERO_SITE_CODE ? zeroLabel : `${selected.code} ${selected.name}`}
          </strong>
          {locked ? null : (
            <button type="button" className="button" onClick={() => setOpen(true)}>
              {t({ id: 'sitePicker.change', defaultMessage: 'Change site' })}
            </button>
          )}
        </div>
        {locked ? (
          <p className="hint-neutral">
            {t({
              id: 'sitePicker.locked',
              defaultMessage:
                'Only a manager or the person who entered this collection can move it to another site.',
            })}
          </p>
        ) : null}
      </div>
    );
  }
  /** Why the list is not nearest first, in the technician's words. */
  const notNearest = (failure: GpsFailure) =>
    t(
      {
        id: 'sitePicker.notNearest',
        defaultMessage:
          'Sorted by code, not nearest first: {failure, select, denied {location permission was refused} timeout {the GPS took too long} nogps {this device has no GPS} other {no position is available here}}',
      },
      { failure: failure.replace('-', '') },
    );
  const choose = (id: string) => {
    onChange(id);
    setOpen(false);
    setQuery('');
  };
  return (
    <fieldset className={error ? 'fieldset field-invalid' : 'fieldset'}>
      <legend>{t({ id: 'sitePicker.site', defaultMessage: 'Site' })}</legend>
      <div className="field">
        <label htmlFor="site-picker-search">
          {t({ id: 'sitePicker.find', defaultMessage: 'Find a site' })}
        </label>
        <input
          id="site-picker-search"
          type="search"
          placeholder={t({ id: 'sitePicker.placeholder', defaultMessage: 'Code or name' })}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'site-picker-error' : undefined}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      {gps.fix ? (
        <p className="hint-neutral">
          {t({ id: 'sitePicker.nearestFirst', defaultMessage: 'Nearest to you first' })}
        </p>
      ) : null}
      {gps.status === 'locating' ? (
        <p className="hint-neutral">
          {t({ id: 'sitePicker.finding', defaultMessage: 'Finding your position…' })}
        </p>
      ) : null}
      {gps.status === 'error' && gps.failure ? (
        <p className="hint-neutral">{notNearest(gps.failure)}</p>
      ) : null}
      <ul
        className="list"
        aria-label={t({ id: 'sitePicker.list', defaultMessage: 'Sites to choose from' })}
      >
        {zero ? (
          <li>
            <button type="button" className="list-item" onClick={() => choose(zero.localId)}>
              {zeroLabel}
            </button>
          </li>
        ) : null}
        {candidates.map(({ site, distance }) => (
          <li key={site.localId}>
            <button type="button" className="list-item" onClick={() => choose(site.localId)}>
              <span className="code">{site.code}</span> {site.name}
              {distance !== null ? (
                <span className="muted"> · {distanceIn(intl, distance)}</span>
              ) : null}
            </button>
          </li>
        ))}
      </ul>
      {candidates.length === 0 ? (
        <p className="muted">
          {t({ id: 'sitePicker.noMatch', defaultMessage: 'No site matches “{query}”.' }, { query })}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id="site-picker-error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
