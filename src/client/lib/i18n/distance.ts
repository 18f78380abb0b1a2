import type { IntlShape } from 'react-intl';

/** A distance as a technician reads it, in the language's digits: "420 m", "1.2 km" / "1,2 km". */
export function distanceIn(intl: IntlShape, meters: number): string {
  return meters < 1000
    ? intl.formatNumber(Math.round(meters), { style: 'unit', unit: 'meter' })
    : intl.formatNumber(meters / 1000, {
        style: 'unit',
        unit: 'kilometer',
        minimumFractionDigits: 1,
        maximumFractionDigits: 1,
      });
}

/** A compass point (lib/geo `compassPoint`: N, NE, … NW) as the language writes it (O for W). */
export function compassIn(intl: IntlShape, point: string): string {
  return intl.formatMessage(
    {
      id: 'geo.compass',
      defaultMessage:
        '{point, select, N {N} NE {NE} E {E} SE {SE} S {S} SW {SW} W {W} NW {NW} other {{point}}}',
    },
    { point },
  );
}
