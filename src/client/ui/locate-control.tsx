import { accuracyLevel } from '../lib/geo';
import { useI18n } from '../lib/i18n';
import { usePlaceAccuracyLimit, type GpsState } from '../lib/use-gps';

/**
 * "Use my location" with the fix's accuracy in metres, coloured by how far it can be trusted
 * against the accuracy set in Settings, and what went wrong when there is no fix. The same
 * wherever a place is taken from the GPS (a new site, a collection at the Zero Site).
 */
export function LocateControl({ gps, onLocate }: { gps: GpsState; onLocate: () => void }) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const [enough] = usePlaceAccuracyLimit();
  const coarse = gps.fix !== null && gps.fix.accuracy > enough;
  return (
    <>
      <div className="row wrap">
        <button
          type="button"
          className="button"
          onClick={onLocate}
          disabled={gps.status === 'locating'}
        >
          {gps.status === 'locating'
            ? t({ id: 'gps.locating', defaultMessage: 'Locating…' })
            : t({ id: 'gps.useMyLocation', defaultMessage: 'Use my location' })}
        </button>
        {gps.fix ? (
          <span
            className={`accuracy accuracy-${accuracyLevel(gps.fix.accuracy, enough)}`}
            data-testid="gps-accuracy"
          >
            {t(
              { id: 'gps.accuracy', defaultMessage: 'GPS accuracy ±{m, number} m' },
              { m: Math.round(gps.fix.accuracy) },
            )}
          </span>
        ) : null}
      </div>
      {coarse ? (
        <p className="field-hint">
          {t(
            {
              id: 'gps.coarse',
              defaultMessage:
                'Coarser than the {enough, number} m set in Settings: wait for a better fix in the open, or tap the map or type the coordinates.',
            },
            { enough },
          )}
        </p>
      ) : null}
      {gps.message ? (
        <p className="field-hint">
          {gps.failure
            ? t(
                {
                  id: 'gps.failure',
                  defaultMessage:
                    '{failure, select, denied {Location permission was refused: allow it in the browser settings, or tap the map or type the coordinates} timeout {The GPS took too long: try again in the open, or type the coordinates} nogps {This device has no GPS: tap the map or type the coordinates} other {No position available here: tap the map or type the coordinates}}',
                },
                // An ICU select key is a word: 'no-gps' is said as 'nogps'.
                { failure: gps.failure.replace('-', '') },
              )
            : gps.message}
        </p>
      ) : null}
    </>
  );
}
