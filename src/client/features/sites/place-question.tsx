import { useRef, useState, type FormEvent } from 'react';
import { placeQuestion, type LatLon } from '../../lib/geo';
import { translateRule, useI18n } from '../../lib/i18n';
import { placeOf, type SiteCheck } from '../../lib/site-index';
import { Dialog } from '../../ui/dialog';
import { otherSites } from './other-sites';

/**
 * The site form's question before saving a surprising place: `submitAsking` is the form's
 * onSubmit, asking first when the place needs it (and then not submitting), `formRef` the form.
 */
export function usePlaceQuestion({
  position,
  initialCoordinates,
  sites,
  selfLocalId,
  submit,
}: {
  /** [lat, lon] of the place as typed or picked, or null when there is none yet. */
  position: [number, number] | null;
  /** The saved site's [lon, lat] (an edit), not asked about again. */
  initialCoordinates: readonly unknown[] | undefined;
  sites: readonly SiteCheck[];
  selfLocalId: string | null;
  submit: (e: FormEvent<HTMLFormElement>) => Promise<void>;
}) {
  const intl = useI18n();
  // A place far from all the agency's other sites (a longitude typed without its minus) or at
  // 0, 0 is asked about once before saving; the question goes when the place is changed. The
  // other sites' places are gathered on Save, not with every change of the sites (a sync
  // bringing sites re-renders the form, 20,000 of them each time).
  const othersPlaces = () =>
    otherSites(sites, selfLocalId)
      .map(placeOf)
      .filter((p): p is LatLon => p !== null);
  const formRef = useRef<HTMLFormElement>(null);
  const confirmedPlace = useRef<string | null>(null);
  const [askedPlace, setAskedPlace] = useState<{ key: string; question: string } | null>(null);
  const startPlace = JSON.stringify(initialCoordinates ?? null);
  const placeKey = JSON.stringify(position ? [position[1], position[0]] : null);
  const question = askedPlace && askedPlace.key === placeKey ? askedPlace.question : null;
  const submitAsking = (e: FormEvent<HTMLFormElement>) => {
    // An edit that leaves the place as it was is not asked about again.
    // Coordinates out of range are the schema's to refuse, not a place to ask about.
    if (
      position &&
      Math.abs(position[0]) <= 90 &&
      Math.abs(position[1]) <= 180 &&
      placeKey !== startPlace &&
      confirmedPlace.current !== placeKey
    ) {
      const asking = placeQuestion({ lat: position[0], lon: position[1] }, othersPlaces());
      if (asking) {
        e.preventDefault();
        setAskedPlace({ key: placeKey, question: translateRule(intl, asking) });
        return;
      }
    }
    return submit(e);
  };

  return {
    formRef,
    submitAsking,
    question,
    /** Closes the question and leaves the place to be changed: focus on Latitude. */
    changePlace: () => {
      setAskedPlace(null);
      // After the sheet has closed (it gives focus back to Save site).
      setTimeout(() =>
        formRef.current?.querySelector<HTMLElement>('input[name="shape.coordinates.1"]')?.focus(),
      );
    },
    /** Saves at this place, which is not asked about again. */
    saveThere: () => {
      confirmedPlace.current = placeKey;
      setAskedPlace(null);
      formRef.current?.requestSubmit();
    },
    dismiss: () => setAskedPlace(null),
  };
}

/** The question itself: change the place, or save it there. */
export function PlaceQuestionDialog({
  question,
  onClose,
  onChangePlace,
  onSaveThere,
}: {
  question: string | null;
  onClose: () => void;
  onChangePlace: () => void;
  onSaveThere: () => void;
}) {
  const t = useI18n().formatMessage;
  return (
    <Dialog
      open={question !== null}
      title={t({ id: 'siteForm.checkPlace', defaultMessage: 'Check the place' })}
      onClose={onClose}
    >
      <p>{question}</p>
      <div className="row wrap">
        <button type="button" className="button button-primary" autoFocus onClick={onChangePlace}>
          {t({ id: 'siteForm.changePlace', defaultMessage: 'Change the place' })}
        </button>
        <button type="button" className="button" onClick={onSaveThere}>
          {t({ id: 'siteForm.saveThere', defaultMessage: 'Save it there' })}
        </button>
      </div>
    </Dialog>
  );
}
