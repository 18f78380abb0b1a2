import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'wouter';
import { TARGET_DISEASES, type TargetDisease } from '#shared/reports';
import { useLookups } from '../../db/use-lookups';
import { loadIdentity } from '../../lib/identity';
import { useOnline } from '../../lib/use-online';
import { Banner } from '../../ui/banner';
import { chartSeries } from './chart-series';
import { DownloadCsv } from './download-csv';
import type { ReportResult } from './fetch-report';
import {
  choiceFromSearch,
  choiceToSearch,
  describeChoice,
  REPORT_KINDS,
  REPORT_TITLES,
  reportQuery,
  searchOfQuery,
  type ReportChoice,
  type ReportKind,
} from './report-choice';
import { pickerErrors, ReportPickers, type Option } from './report-pickers';
import { ReportTable } from './report-table';
import { reportQueries, useReport, useReportCacheRestored } from './use-report';
import './reports.css';

// The chart is its own chunk, loaded when a report is first drawn.
const ReportChart = lazy(() => import('./report-chart'));

/** How many seasons the pickers offer, counting back from the current one. */
const SEASONS_OFFERED = 7;

export const formatComputed = (ms: number) =>
  new Date(ms).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

type Props = {
  /** The agency data download panel (the exports feature), composed in by the app. */
  exports?: ReactNode;
};

/** The reports kept on this tablet for this user, newest first (see lib/report-cache). */
function useKeptReports(owner: string) {
  const client = useQueryClient();
  return client
    .getQueryCache()
    .findAll({ queryKey: reportQueries.all(owner) })
    .filter((q) => q.state.data !== undefined)
    .map((q) => ({
      kind: q.queryKey[2] as ReportKind,
      query: q.queryKey[3] as string,
      computedAt: (q.state.data as ReportResult).computedAt,
    }))
    .filter((r) => REPORT_KINDS.includes(r.kind))
    .sort((a, b) => b.computedAt - a.computedAt);
}

function KeptReports({ owner, season }: { owner: string; season: number }) {
  const kept = useKeptReports(owner);
  if (kept.length === 0) return null;
  return (
    <nav aria-label="Reports kept on this tablet" className="report-kept">
      <h2>Reports kept on this tablet</h2>
      <ul className="list">
        {kept.map((r) => {
          const search = searchOfQuery(r.kind, r.query);
          const choice = choiceFromSearch(search, season);
          return (
            <li key={`${r.kind}?${r.query}`}>
              <Link href={`/reports?${search.toString()}`} className="list-item">
                <span>
                  <strong>{REPORT_TITLES[r.kind]}</strong>
                  <br />
                  <span className="muted">{describeChoice(choice)}</span>
                </span>
                <span className="tag">computed {formatComputed(r.computedAt)}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** Reports: the district's surveillance figures, computed by the BFF, kept for offline use. */
export function ReportsScreen({ exports }: Props) {
  const [owner] = useState(() => {
    const who = loadIdentity();
    return who ? `${who.agency.id}:${who.user.username}` : 'nobody';
  });
  const season = new Date().getFullYear();
  const [params, setParams] = useSearchParams();
  const choice = useMemo(() => choiceFromSearch(params, season), [params, season]);
  const setChoice = (next: ReportChoice) => setParams(choiceToSearch(next), { replace: true });

  const { lookups } = useLookups();
  // In the lookups' order: each species' chart colour and mark follow it (series-style.ts).
  const speciesOrder = useMemo(
    () =>
      lookups.species
        .filter((s) => s.type === 'mosquito')
        .map((s) => s.display_name || s.full_name),
    [lookups.species],
  );
  const species: Option[] = useMemo(
    () => [...speciesOrder].sort().map((name) => ({ value: name, label: name })),
    [speciesOrder],
  );
  const traps: Option[] = useMemo(
    () =>
      lookups.trap
        .filter((t) => !t.presence)
        .map((t) => ({ value: t.acronym, label: `${t.acronym} (${t.name})` })),
    [lookups.trap],
  );
  const targets = useMemo(() => {
    const names: Partial<Record<TargetDisease, string>> = {};
    for (const t of lookups.test_target)
      if ((TARGET_DISEASES as readonly string[]).includes(t.acronym))
        names[t.acronym as TargetDisease] = t.name;
    return names;
  }, [lookups.test_target]);
  const seasons = useMemo(() => {
    const all = new Set([...Array.from({ length: SEASONS_OFFERED }, (_, i) => season - i)]);
    for (const y of choice.years) all.add(y);
    return [...all].sort((a, b) => b - a);
  }, [season, choice.years]);

  const online = useOnline();
  const restored = useReportCacheRestored(owner);
  const query = reportQuery(choice);
  const report = useReport(owner, choice.report, query, restored);
  const data = report.data;
  const error = report.error;
  const offline = !online || error?.reason === 'offline';
  const errors = error?.reason === 'invalid' ? pickerErrors(error.fields) : {};
  const chart = useMemo(
    () => (data ? chartSeries(choice.report, data.rows, choice.interval, speciesOrder) : null),
    [data, choice.report, choice.interval, speciesOrder],
  );

  return (
    <section className="screen reports">
      <h1>Reports</h1>
      <ReportPickers
        choice={choice}
        onChange={setChoice}
        seasons={seasons}
        species={species}
        traps={traps}
        targets={targets}
        errors={errors}
      />

      <h2>{REPORT_TITLES[choice.report]}</h2>
      <p className="muted report-description">{describeChoice(choice)}</p>
      {data && offline ? (
        <Banner tone="warn">
          You are offline. This is the report as computed {formatComputed(data.computedAt)}; it
          updates when the connection is back.
        </Banner>
      ) : null}
      {!data && offline && restored ? (
        <Banner tone="warn">
          You are offline. Reports need a connection; the last ones you opened are kept on this
          tablet (below).
        </Banner>
      ) : null}
      {error?.reason === 'invalid' ? (
        <Banner tone="error">{error.message}. Check the choices marked above.</Banner>
      ) : null}
      {error?.reason === 'reauth' ? <Banner tone="warn">{error.message}</Banner> : null}
      {error?.reason === 'server' ? (
        <Banner
          tone="error"
          actions={
            <button type="button" className="button" onClick={() => void report.refetch()}>
              Try again
            </button>
          }
        >
          {error.message}
        </Banner>
      ) : null}

      {data ? (
        <>
          <p className="report-computed" data-testid="report-computed">
            Computed {formatComputed(data.computedAt)}
            {report.isFetching && !offline ? ' · updating…' : ''}
          </p>
          {data.rows.length === 0 ? (
            <p className="card">
              No trap collections or pools match these choices. Try another season or fewer filters.
            </p>
          ) : (
            <>
              {chart ? (
                <Suspense fallback={<p className="muted">Drawing the chart…</p>}>
                  <ReportChart data={chart} interval={choice.interval} />
                </Suspense>
              ) : null}
              <ReportTable
                rows={data.rows}
                caption={`${REPORT_TITLES[choice.report]}: ${describeChoice(choice)}`}
              />
            </>
          )}
          <DownloadCsv kind={choice.report} query={query} online={online} />
        </>
      ) : report.isFetching || !restored ? (
        <p className="muted" role="status">
          Computing the report…
        </p>
      ) : null}

      {offline ? <KeptReports owner={owner} season={season} /> : null}
      {exports}
    </section>
  );
}
