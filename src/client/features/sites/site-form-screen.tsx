import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useI18n } from '../../lib/i18n';
import { useLocation } from 'wouter';
import { siteCreate, type SiteCreate } from '#shared';
import { createSite } from '../../db/create-site';
import type { TraplineDb } from '../../db/database';
import { useDb } from '../../db/db-context';
import { updateSite } from '../../db/update-site';
import { useLookups } from '../../db/use-lookups';
import { LookupsNotice } from '../../ui/lookups-notice';
import { draftKey } from '../../lib/drafts/draft-keys';
import { useRecordDraft } from '../../ui/form/use-record-draft';
import { mergeFormData, pickKeys } from '../../ui/form/merge-form-data';
import { proposedSiteCode } from './proposed-site-code';
import { SiteForm, type LocationPickerProps } from './site-form';
import { useSite } from './use-sites';
import { useSiteChecks, withStoredSite } from '../../db/use-site-checks';

/** Fields the site form edits; anything else the record holds is carried through an edit. */
const SITE_FORM_KEYS = Object.keys(siteCreate.shape).filter((k) => k !== 'agency' && k !== 'user');

type Props = {
  /** Edit this site; absent for a new one. */
  localId?: string;
  onSaved?: () => void;
  renderPicker?: (props: LocationPickerProps) => ReactNode;
};

/** New site / Edit site: loads the record, saves through the repositories, then shows the site. */
export function SiteFormScreen({ localId, onSaved, renderPicker }: Props) {
  const db = useDb();
  const intl = useI18n();
  const t = intl.formatMessage;
  const [, navigate] = useLocation();
  const { lookups, loaded: listsRead, storedAt } = useLookups();
  const checks = useSiteChecks();
  const proposedCode = useProposedCode(localId ? null : db);
  const site = useSite(localId ?? '');
  // The edited site as stored now (the index's copy may lag an edit saved a moment ago).
  const sites = useMemo(
    () => (checks === undefined ? undefined : localId ? withStoredSite(checks, site) : checks),
    [checks, localId, site],
  );
  const { opened, place, savedAgainst } = useRecordDraft({
    store: db.meta,
    form: 'site',
    record: localId ?? null,
    parent: null,
    data: site?.data,
    gone: Boolean(localId) && (site === null || site?.deleted === true),
  });
  if (
    sites === undefined ||
    (!localId && proposedCode === undefined) ||
    (localId && site === undefined)
  )
    return <p>{t({ id: 'sites.loading', defaultMessage: 'Loading…' })}</p>;
  if (localId && !site)
    return (
      <p role="alert">
        {t({ id: 'sites.notOnTablet', defaultMessage: 'This site is not on this tablet.' })}
      </p>
    );
  // A deleted record takes no edit (updateRecord refuses it): no form to type into for nothing.
  if (site?.deleted)
    return (
      <p role="alert">
        {t({
          id: 'sites.deletedWaiting',
          defaultMessage: 'This site was deleted: the deletion is waiting to be sent.',
        })}
      </p>
    );

  const save = async (data: SiteCreate) => {
    let target = localId;
    if (localId && site && opened)
      await updateSite(
        db,
        localId,
        mergeFormData(opened, data, SITE_FORM_KEYS),
        savedAgainst(),
        draftKey(place),
      );
    else target = await createSite(db, data, draftKey(place));
    onSaved?.();
    navigate(`/sites/${target}`);
  };
  return (
    <section className="screen">
      <h1>
        {localId
          ? t(
              { id: 'sites.editTitle', defaultMessage: 'Edit site {code}' },
              { code: site?.code ?? '' },
            )
          : t({ id: 'sites.newTitle', defaultMessage: 'New site' })}
      </h1>
      <LookupsNotice loaded={listsRead} storedAt={storedAt} />
      <SiteForm
        key={localId ?? 'new'}
        lookups={lookups}
        sites={sites}
        initial={opened ? (pickKeys(opened, SITE_FORM_KEYS) as Partial<SiteCreate>) : undefined}
        proposedCode={proposedCode}
        selfLocalId={localId ?? null}
        problem={site?.problem ?? null}
        onSubmit={save}
        onCancel={() => history.back()}
        renderPicker={renderPicker}
        draft={place}
      />
    </section>
  );
}

/**
 * The code proposed for a new site (proposedSiteCode), read once from the code index, no record
 * read but the few at its top: exact where the site index (useSiteChecks) may lag a site saved a
 * moment ago by its re-read. Null while not asked (`db` null: an edit keeps its code), when
 * every code is taken or when the codes could not be read; undefined while reading.
 */
function useProposedCode(db: TraplineDb | null): string | null | undefined {
  const [code, setCode] = useState<string | null | undefined>(db ? undefined : null);
  useEffect(() => {
    if (!db) return;
    let live = true;
    // A failed read proposes nothing: the form opens for the technician to type the code,
    // instead of "Loading…" for ever (and no unhandled rejection).
    proposedSiteCode(db).then(
      (proposed) => live && setCode(proposed),
      () => live && setCode(null),
    );
    return () => {
      live = false;
    };
  }, [db]);
  return code;
}
