import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { siteCreate, type SiteCreate } from '../../../shared';
import { createSite } from '../../db/create-site';
import { useDb } from '../../db/db-context';
import { updateSite } from '../../db/update-site';
import { useLookups } from '../../db/use-lookups';
import { LookupsNotice } from '../../ui/lookups-notice';
import { mergeFormData, pickKeys } from '../../ui/form/merge-form-data';
import { nextSiteCode } from './next-site-code';
import { SiteForm, type LocationPickerProps } from './site-form';
import { useSite, useSites } from './use-sites';

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
  const [, navigate] = useLocation();
  const { lookups, loaded: listsRead, storedAt } = useLookups();
  const sites = useSites();
  const site = useSite(localId ?? '');
  if (sites === undefined || (localId && site === undefined)) return <p>Loading…</p>;
  if (localId && !site) return <p role="alert">This site is not on this tablet.</p>;

  const save = async (data: SiteCreate) => {
    let target = localId;
    if (localId && site)
      await updateSite(db, localId, mergeFormData(site.data, data, SITE_FORM_KEYS));
    else target = await createSite(db, data);
    onSaved?.();
    navigate(`/sites/${target}`);
  };
  return (
    <section className="screen">
      <h1>{localId ? `Edit site ${site?.code ?? ''}` : 'New site'}</h1>
      <LookupsNotice loaded={listsRead} storedAt={storedAt} />
      <SiteForm
        key={localId ?? 'new'}
        lookups={lookups}
        sites={sites}
        initial={site ? (pickKeys(site.data, SITE_FORM_KEYS) as Partial<SiteCreate>) : undefined}
        proposedCode={localId ? null : nextSiteCode(sites.map((s) => s.code))}
        selfLocalId={localId ?? null}
        problem={site?.problem ?? null}
        onSubmit={save}
        onCancel={() => history.back()}
        renderPicker={renderPicker}
      />
    </section>
  );
}
