import { useQueryClient } from '@tanstack/react-query';
import type { IntlShape } from 'react-intl';
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'wouter';
import { TARGET_DISEASES, type TargetDisease } from '#shared/reports';
import { useLookups } from '../../db/use-lookups';
import { loadIdentity, ownerOf } from '../../lib/identity';
import { reportOwner } from '../../lib/report-cache';
import { serverMessage, useI18n } from '../../lib/i18n';
import { useOnline } from '../../lib/use-online';
import { Banner } from '../../ui/banner';
import { anomalyNote } from './anomaly-note';
import { chartSeries } from './chart-series';
import { DownloadCsv } from './download-csv';
import type { ReportResult } from './fetch-report';
import {
  choiceFromSearch,
  choiceToSearch,
  describeChoice,
  REPORT_KINDS,
  reportTitle,
  reportQuery,
  searchOfQuery,
  type ReportChoice,
  type ReportKind,
} from './report-choice';
import { pickerErrors, ReportPickers, type Option } from './report-pickers';
import { refusalSummary, reportProblemWords } from './report-problem-words';
import { ReportTable } from './report-table';
import { offeredSeasons, useSeasonsWithData } from './seasons-with-data';
import {
  reportQueries,
  useRememberLastViewed,
  useReport,
  useReportCacheRestored,
} from './use-report';
import './reports.css';

// The chart is its own chunk, loaded when a report is first drawn.
const ReportChart = lazy(() => import('./report-chart'));

/** When a report was computed, in the person's language. */
const formatComputed = (intl: IntlShape, ms: number) =>
  intl.formatDate(ms, { dateStyle: 'medium', timeStyle: 'short' });

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

/**
 * The reports kept on this tablet, offline: at the top of the screen, above the pickers (offline,
 * only these can be shown), so it is seen without scrolling past a long table. Folded while a
 * kept report is on screen (one tap opens it), open when the chosen report is not kept.
 */
function KeptReports({ owner, season, open }: { owner: string; season: number; open: boolean }) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const kept = useKeptReports(owner);
  if (kept.length === 0) return null;
  return (
    <nav
      aria-label={t({ id: 'reports.kept.label', defaultMessage: 'Reports kept on this tablet' })}
      className="report-kept"
    >
      <details open={open}>
        <summary>
          <h2>
            {t(
              { id: 'reports.kept.title', defaultMessage: 'Reports kept on this tablet ({count})' },
              { count: kept.length },
            )}
          </h2>
        </summary>
        <ul className="list">
          {kept.map((r) => {
            const search = searchOfQuery(r.kind, r.query);
            const choice = choiceFromSearch(search, season);
            return (
              <li key={`${r.kind}?${r.query}`}>
                <Link href={`/reports?${search.toString()}`} className="list-item">
                  <span>
                    <strong>{reportTitle(intl, r.kind)}</strong>
                    <br />
                    <span className="muted">{describeChoice(choice, intl)}</span>
                  </span>
                  <span className="tag">
                    {t(
                      { id: 'reports.kept.computed', defaultMessage: 'computed {when}' },
                      { when: formatComputed(intl, r.computedAt) },
                    )}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      </details>
    </nav>
  );
}

/** Reports: the district's surveillance figures, computed by the BFF, kept for offline use. */
export function ReportsScreen({ exports }: Props) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const [owner] = useState(() => {
    const who = loadIdentity();
    return who ? reportOwner(ownerOf(who)) : 'nobody';
  });
  const season = new Date().getFullYear();
  const { restored, lastViewed: storedLastViewed } = useReportCacheRestored(owner);
  const [shownSearch, setShownSearch] = useState<string | null>(null);
  const lastViewed = shownSearch ?? storedLastViewed;
  const [params, setParams] = useSearchParams();
  // Reports opened with no choice in its URL (the navigation link) reopens on the report this
  // user last viewed, online or not; the URL then says which, so a reload keeps it.
  const reopen = !params.has('report') && lastViewed !== null;
  const shownParams = useMemo(
    () => (reopen ? new URLSearchParams(lastViewed) : params),
    [reopen, lastViewed, params],
  );
  useEffect(() => {
    if (reopen) setParams(new URLSearchParams(lastViewed), { replace: true });
  }, [reopen, lastViewed, setParams]);
  const choice = useMemo(() => choiceFromSearch(shownParams, season), [shownParams, season]);
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
  const found = useSeasonsWithData(owner, season, restored).data;
  const seasons = useMemo(
    () => offeredSeasons(found, choice.years, season),
    [found, choice.years, season],
  );

  const online = useOnline();
  const query = reportQuery(choice);
  const report = useReport(owner, choice.report, query, restored);
  const data = report.data;
  useRememberLastViewed(
    owner,
    choiceToSearch(choice).toString(),
    restored && Boolean(data),
    setShownSearch,
  );
  const note =
    data && choice.report === 'abundance-anomaly'
      ? anomalyNote(data.rows, Math.max(...choice.years), choice.interval, found, intl)
      : null;
  const error = report.error;
  const offline = !online || error?.reason === 'offline';
  const errors =
    error?.reason === 'invalid'
      ? pickerErrors(error.fields, (f) => reportProblemWords(intl, f))
      : {};
  const chart = useMemo(
    () =>
      data ? chartSeries(choice.report, data.rows, choice.interval, speciesOrder, intl) : null,
    [data, choice.report, choice.interval, speciesOrder, intl],
  );

  return (
    <section className="screen reports">
      <h1>{t({ id: 'reports.title', defaultMessage: 'Reports' })}</h1>
      {offline ? <KeptReports owner={owner} season={season} open={!data} /> : null}
      <ReportPickers
        choice={choice}
        onChange={setChoice}
        seasons={seasons}
        species={species}
        traps={traps}
        targets={targets}
        errors={errors}
      />

      <h2>{reportTitle(intl, choice.report)}</h2>
      <p className="muted report-description">{describeChoice(choice, intl)}</p>
      {data && offline ? (
        <Banner tone="warn">
          {t(
            {
              id: 'reports.offlineKept',
              defaultMessage:
                'You are offline. This is the report as computed {when}; it updates when the connection is back.',
            },
            { when: formatComputed(intl, data.computedAt) },
          )}
        </Banner>
      ) : null}
      {!data && offline && restored ? (
        <Banner tone="warn">
          {t({
            id: 'reports.offlineNotKept',
            defaultMessage:
              'You are offline. This report has not been kept on this tablet; reports need a connection. The last ones you opened are kept: they are listed at the top.',
          })}
        </Banner>
      ) : null}
      {error?.reason === 'invalid' ? (
        <Banner tone="error">
          {t(
            {
              id: 'reports.invalid',
              defaultMessage: '{message}. Check the choices marked above.',
            },
            { message: refusalSummary(intl, error.message, error.fields) },
          )}
        </Banner>
      ) : null}
      {error?.reason === 'reauth' ? (
        <Banner tone="warn">
          {t({
            id: 'reports.reauth',
            defaultMessage: 'Your sign-in has expired: sign in again to see reports.',
          })}
        </Banner>
      ) : null}
      {error?.reason === 'server' ? (
        <Banner
          tone="error"
          actions={
            <button type="button" className="button" onClick={() => void report.refetch()}>
              {t({ id: 'reports.tryAgain', defaultMessage: 'Try again' })}
            </button>
          }
        >
          {t(
            {
              id: 'reports.serverFailed',
              defaultMessage:
                'The server could not compute this report ({why}). Try again in a minute.',
            },
            { why: serverMessage(intl, error.server ?? { code: '', message: error.message }) },
          )}
        </Banner>
      ) : null}

      {data ? (
        <>
          <p className="report-computed" data-testid="report-computed">
            {report.isFetching && !offline
              ? t(
                  { id: 'reports.computedUpdating', defaultMessage: 'Computed {when} · updating…' },
                  { when: formatComputed(intl, data.computedAt) },
                )
              : t(
                  { id: 'reports.computed', defaultMessage: 'Computed {when}' },
                  { when: formatComputed(intl, data.computedAt) },
                )}
          </p>
          {data.rows.length === 0 ? (
            <p className="card">
              {t({
                id: 'reports.noRows',
                defaultMessage:
                  'No trap collections or pools match these choices. Try another season or fewer filters.',
              })}
            </p>
          ) : (
            <>
              {note ? (
                <p className="card report-note" role="note">
                  {note}
                </p>
              ) : null}
              {chart ? (
                <Suspense
                  fallback={
                    <p className="muted">
                      {t({ id: 'reports.drawingChart', defaultMessage: 'Drawing the chart…' })}
                    </p>
                  }
                >
                  <ReportChart data={chart} interval={choice.interval} />
                </Suspense>
              ) : null}
              <ReportTable
                rows={data.rows}
                caption={`${reportTitle(intl, choice.report)}: ${describeChoice(choice, intl)}`}
              />
            </>
          )}
          <DownloadCsv kind={choice.report} query={query} online={!offline} />
        </>
      ) : report.isFetching || !restored ? (
        <p className="muted" role="status">
          {t({ id: 'reports.computing', defaultMessage: 'Computing the report…' })}
        </p>
      ) : null}

      {exports}
    </section>
  );
}
