import { accuracyLevel } from '../lib/geo';
import { usePlaceAccuracyLimit, type GpsState } from '../lib/use-gps';

/**
 * "Use my location" with the fix's accuracy in metres, coloured by how far it can be trusted
 * against the accuracy set in Settings, and what went wrong when there is no fix. The same
 * wherever a place is taken from the GPS (a new site, a collection at the Zero Site).
 */
export function LocateControl({ gps, onLocate }: { gps: GpsState; onLocate: () => void }) {
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
          {gps.status === 'locating' ? 'Locating…' : 'Use my location'}
        </button>
        {gps.fix ? (
          <span
            className={`accuracy accuracy-${accuracyLevel(gps.fix.accuracy, enough)}`}
            data-testid="gps-accuracy"
          >
            GPS accuracy ±{Math.round(gps.fix.accuracy)} m
          </span>
        ) : null}
      </div>
      {coarse ? (
        <p className="field-hint">
          Coarser than the {enough} m set in Settings: wait for a better fix in the open, or tap the
          map or type the coordinates.
        </p>
      ) : null}
      {gps.message ? <p className="field-hint">{gps.message}</p> : null}
    </>
  );
}
