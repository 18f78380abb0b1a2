import { defineMessage } from 'react-intl';
import type { Rule } from './rule';

/**
 * What the app's own layers say in English about a record rather than a field's rule: the
 * place checks of a site's coordinates (swapped, east of Greenwich, far from the other sites)
 * and the sync engine's notices on a parked or conflicting change.
 */
export const RECORD_NOTICES: readonly Rule[] = [
  {
    pattern:
      /^Latitude (?<lat>\S+) is outside -90 to 90: latitude and longitude look swapped \(try latitude (?<tryLat>\S+), longitude (?<tryLon>\S+)\)\.$/,
    message: defineMessage({
      id: 'place.swapped',
      defaultMessage:
        'Latitude {lat} is outside -90 to 90: latitude and longitude look swapped (try latitude {tryLat}, longitude {tryLon}).',
    }),
    values: ['lat', 'tryLat', 'tryLon'],
  },
  {
    pattern:
      /^Longitude (?<lon>\S+) is east of Greenwich; in California longitudes are negative \(did you mean (?<meant>\S+)\?\)\.$/,
    message: defineMessage({
      id: 'place.eastOfGreenwich',
      defaultMessage:
        'Longitude {lon} is east of Greenwich; in California longitudes are negative (did you mean {meant}?).',
    }),
    values: ['lon', 'meant'],
  },
  {
    pattern:
      /^Latitude (?<lat>\S+) is in the southern hemisphere; in California latitudes are positive \(did you mean (?<meant>\S+)\?\)\.$/,
    message: defineMessage({
      id: 'place.southern',
      defaultMessage:
        'Latitude {lat} is in the southern hemisphere; in California latitudes are positive (did you mean {meant}?).',
    }),
    values: ['lat', 'meant'],
  },
  {
    pattern: /^This place, 0, 0, is in the ocean off West Africa/,
    message: defineMessage({
      id: 'place.nullIsland',
      defaultMessage:
        'This place, 0, 0, is in the ocean off West Africa: usually coordinates that were never filled in. Save it there?',
    }),
  },
  {
    pattern: /^This place is (?<km>[\d,]+) km from your other sites\. Save it there\?$/,
    message: defineMessage({
      id: 'place.farFromSites',
      defaultMessage: 'This place is {km} km from your other sites. Save it there?',
    }),
    values: ['km'],
  },
  {
    pattern:
      /^Changed on the server since your edit: (?<fields>.+?)(?<choose>\. Choose which values to keep\.)?$/,
    message: defineMessage({
      id: 'sync.changedOnServer',
      defaultMessage:
        'Changed on the server since your edit: {fields}{choose, select, no {} other {. Choose which values to keep.}}',
    }),
    values: ['fields', 'choose'],
  },
  {
    pattern: /^Also changed on the server$/,
    message: defineMessage({
      id: 'sync.alsoChanged',
      defaultMessage: 'Also changed on the server',
    }),
  },
  {
    pattern: /^This record was never saved to the server$/,
    message: defineMessage({
      id: 'sync.neverSaved',
      defaultMessage: 'This record was never saved to the server',
    }),
  },
  {
    pattern: /^This record no longer exists on the server$/,
    message: defineMessage({
      id: 'sync.noLongerExists',
      defaultMessage: 'This record no longer exists on the server',
    }),
  },
  {
    pattern: /^This change is being sent right now; wait for its answer before discarding it$/,
    message: defineMessage({
      id: 'sync.beingSent',
      defaultMessage:
        'This change is being sent right now; wait for its answer before discarding it',
    }),
  },
  {
    pattern: /^This change is no longer waiting to be sent$/,
    message: defineMessage({
      id: 'sync.noLongerWaiting',
      defaultMessage: 'This change is no longer waiting to be sent',
    }),
  },
  {
    pattern: /^The record of this change is no longer on this tablet$/,
    message: defineMessage({
      id: 'sync.recordGone',
      defaultMessage: 'The record of this change is no longer on this tablet',
    }),
  },
];
