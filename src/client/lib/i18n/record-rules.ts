import { defineMessage } from 'react-intl';
import type { Rule } from './rule';

/**
 * The field rules of sites, collections, pools and pool tests that src/shared words in English
 * (its schemas are the records service's too, so its error bodies stay as they are): each
 * matched by its exact English wording and said in the person's language on the forms. The
 * values inside (counts, days, species) are kept as written.
 */
export const RECORD_RULES: readonly Rule[] = [
  {
    pattern: /^Site code must be exactly 6 digits$/,
    message: defineMessage({
      id: 'rules.siteCode',
      defaultMessage: 'Site code must be exactly 6 digits',
    }),
  },
  {
    pattern: /^Site name is required$/,
    message: defineMessage({ id: 'rules.siteName', defaultMessage: 'Site name is required' }),
  },
  {
    pattern: /^Elevation must be at least (?<m>-?[\d.]+) m$/,
    message: defineMessage({
      id: 'rules.elevationMin',
      defaultMessage: 'Elevation must be at least {m} m',
    }),
    values: ['m'],
  },
  {
    pattern: /^Elevation must be at most (?<m>-?[\d.]+) m$/,
    message: defineMessage({
      id: 'rules.elevationMax',
      defaultMessage: 'Elevation must be at most {m} m',
    }),
    values: ['m'],
  },
  {
    pattern: /^Postal code must be 5 digits$/,
    message: defineMessage({
      id: 'rules.postalCode',
      defaultMessage: 'Postal code must be 5 digits',
    }),
  },
  {
    pattern: /^Count must be a whole number$/,
    message: defineMessage({
      id: 'rules.countWhole',
      defaultMessage: 'Count must be a whole number',
    }),
  },
  {
    pattern: /^Count cannot be negative$/,
    message: defineMessage({
      id: 'rules.countNegative',
      defaultMessage: 'Count cannot be negative',
    }),
  },
  {
    pattern:
      /^Row (?<row>\d+) repeats the species and sex of row (?<first>\d+); add the counts into one row$/,
    message: defineMessage({
      id: 'rules.rowRepeats',
      defaultMessage:
        'Row {row} repeats the species and sex of row {first}; add the counts into one row',
    }),
    values: ['row', 'first'],
  },
  {
    pattern: /^Number of traps must be a whole number$/,
    message: defineMessage({
      id: 'rules.trapsWhole',
      defaultMessage: 'Number of traps must be a whole number',
    }),
  },
  {
    pattern: /^At least 1 trap$/,
    message: defineMessage({ id: 'rules.trapsMin', defaultMessage: 'At least 1 trap' }),
  },
  {
    pattern: /^Trap nights must be a whole number$/,
    message: defineMessage({
      id: 'rules.nightsWhole',
      defaultMessage: 'Trap nights must be a whole number',
    }),
  },
  {
    pattern: /^At least 1 trap night$/,
    message: defineMessage({ id: 'rules.nightsMin', defaultMessage: 'At least 1 trap night' }),
  },
  {
    pattern: /^Must be at most (?<max>\d+)$/,
    message: defineMessage({ id: 'rules.storedInt', defaultMessage: 'Must be at most {max}' }),
    values: ['max'],
  },
  {
    pattern: /^Pool count must be a whole number$/,
    message: defineMessage({
      id: 'rules.poolWhole',
      defaultMessage: 'Pool count must be a whole number',
    }),
  },
  {
    pattern: /^A pool holds at least 1$/,
    message: defineMessage({ id: 'rules.poolMin', defaultMessage: 'A pool holds at least 1' }),
  },
  {
    pattern: /^A pool holds at most (?<max>\d+)$/,
    message: defineMessage({ id: 'rules.poolMax', defaultMessage: 'A pool holds at most {max}' }),
    values: ['max'],
  },
  {
    pattern: /^This text holds a broken character/,
    message: defineMessage({
      id: 'rules.loneSurrogate',
      defaultMessage:
        'This text holds a broken character (an unpaired UTF-16 surrogate); retype it',
    }),
  },
  {
    pattern: /^Coordinates must be finite numbers$/,
    message: defineMessage({
      id: 'rules.coordinatesFinite',
      defaultMessage: 'Coordinates must be finite numbers',
    }),
  },
  {
    pattern:
      /^Latitude (?<lat>\S+) is outside -90\.\.90: the coordinates look swapped\. Send \[longitude, latitude\], e\.g\. \[\S+, (?<lon>\S+)\]$/,
    message: defineMessage({
      id: 'rules.coordinatesSwapped',
      defaultMessage:
        'Latitude {lat} is outside -90..90: the coordinates look swapped. Send [longitude, latitude], e.g. [{lat}, {lon}]',
    }),
    values: ['lat', 'lon'],
  },
  {
    pattern:
      /^Longitude must be within -180\.\.180 and latitude within -90\.\.90 \(\[longitude, latitude\]\)$/,
    message: defineMessage({
      id: 'rules.coordinatesRange',
      defaultMessage:
        'Longitude must be within -180..180 and latitude within -90..90 ([longitude, latitude])',
    }),
  },
  {
    pattern:
      /^Use a real date like 2026-07-14, or a date-time with offset like 2026-07-14T06:30:00-07:00$/,
    message: defineMessage({
      id: 'rules.realDate',
      defaultMessage:
        'Use a real date like 2026-07-14, or a date-time with offset like 2026-07-14T06:30:00-07:00',
    }),
  },
  {
    pattern:
      /^(?<name>.+) cannot be combined with (?<mixed>.+) for the same species; count them all as .+ or split every female by condition$/,
    message: defineMessage({
      id: 'rules.mixedCondition',
      defaultMessage:
        '{name} cannot be combined with {mixed} for the same species; count them all as {mixed} or split every female by condition',
    }),
    values: ['name', 'mixed'],
  },
  {
    pattern: /^No (?<what>.+) were counted in this collection$/,
    message: defineMessage({
      id: 'rules.poolNothingCounted',
      defaultMessage: 'No {what} were counted in this collection',
    }),
    values: ['what'],
  },
  {
    pattern:
      /^Only (?<counted>\d+) (?<what>.+) were counted: these pools would hold (?<pooled>\d+)$/,
    message: defineMessage({
      id: 'rules.poolOverflow',
      defaultMessage: 'Only {counted} {what} were counted: these pools would hold {pooled}',
    }),
    values: ['counted', 'what', 'pooled'],
  },
  {
    pattern:
      /^(?<pooled>\d+) (?<what>.+) are already in pools: keep their row with a count of at least \d+, or remove those pools first$/,
    message: defineMessage({
      id: 'rules.rowInPools',
      defaultMessage:
        '{pooled} {what} are already in pools: keep their row with a count of at least {pooled}, or remove those pools first',
    }),
    values: ['pooled', 'what'],
  },
  {
    pattern:
      /^(?<pooled>\d+) (?<what>.+) are already in pools: the count cannot be lower than \d+$/,
    message: defineMessage({
      id: 'rules.countInPools',
      defaultMessage:
        '{pooled} {what} are already in pools: the count cannot be lower than {pooled}',
    }),
    values: ['pooled', 'what'],
  },
  {
    pattern: /^The test date cannot be before the collection date \((?<day>.+)\)$/,
    message: defineMessage({
      id: 'rules.testBeforeCollection',
      defaultMessage: 'The test date cannot be before the collection date ({day})',
    }),
    values: ['day'],
  },
  {
    pattern:
      /^A pool of this collection was tested on (?<day>.+): the collection date cannot be after that$/,
    message: defineMessage({
      id: 'rules.collectionAfterTest',
      defaultMessage:
        'A pool of this collection was tested on {day}: the collection date cannot be after that',
    }),
    values: ['day'],
  },
  {
    pattern: /^The test date cannot be after today \((?<day>.+)\); check the date$/,
    message: defineMessage({
      id: 'rules.testInFuture',
      defaultMessage: 'The test date cannot be after today ({day}); check the date',
    }),
    values: ['day'],
  },
  {
    pattern:
      /^A test value cannot be negative \(a Ct is between (?<min>\S+) and (?<max>\S+)\); check the value$/,
    message: defineMessage({
      id: 'rules.valueNegative',
      defaultMessage:
        'A test value cannot be negative (a Ct is between {min} and {max}); check the value',
    }),
    values: ['min', 'max'],
  },
  {
    pattern:
      /^A Ct is between (?<min>\S+) and (?<max>\S+); (?<value>\S+) cannot be one — check the value$/,
    message: defineMessage({
      id: 'rules.ctRange',
      defaultMessage: 'A Ct is between {min} and {max}; {value} cannot be one — check the value',
    }),
    values: ['min', 'max', 'value'],
  },
  {
    pattern: /^The deactive date is before the active date$/,
    message: defineMessage({
      id: 'rules.siteDatesOrder',
      defaultMessage: 'The deactive date is before the active date',
    }),
  },
];
