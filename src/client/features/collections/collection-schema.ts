import { z } from 'zod';
import {
  collectionCreate,
  countBelowPooledMessage,
  locationInput,
  mixedConditionConflicts,
  poolOverflows,
  speciesSexKey,
  testBeforeCollection,
  testDateMessages,
  type Sex,
} from '#shared';
import { defineMessages, type IntlShape } from 'react-intl';
import { toIsoWithOffset } from '../../lib/dates';
import { dateIn } from '../../lib/i18n';
import type { FieldLabels } from '../../ui/form/form-errors';

/** The collection form's field names, for its labels and zod's generic messages. */
export const COLLECTION_WORDS = defineMessages({
  site: { id: 'collectionForm.site', defaultMessage: 'Site' },
  date: { id: 'collectionForm.date', defaultMessage: 'Collection date' },
  trap: { id: 'collectionForm.trap', defaultMessage: 'Trap type' },
  numTrap: { id: 'collectionForm.numTrap', defaultMessage: 'Number of traps' },
  trapNights: { id: 'collectionForm.trapNights', defaultMessage: 'Trap nights' },
  identifiedBy: { id: 'collectionForm.identifiedBy', defaultMessage: 'Identified by' },
  comments: { id: 'form.comments', defaultMessage: 'Comments' },
  species: { id: 'collectionForm.species', defaultMessage: 'Species' },
  sex: { id: 'collectionForm.sex', defaultMessage: 'Sex' },
  count: { id: 'collectionForm.count', defaultMessage: 'Count' },
  longitude: { id: 'coordinates.longitude', defaultMessage: 'Longitude' },
  latitude: { id: 'coordinates.latitude', defaultMessage: 'Latitude' },
  precision: { id: 'coordinates.precision', defaultMessage: 'Coordinate precision' },
});

export const COLLECTION_LABELS: FieldLabels = {
  siteLocalId: COLLECTION_WORDS.site,
  collection_date: COLLECTION_WORDS.date,
  trap: COLLECTION_WORDS.trap,
  num_trap: COLLECTION_WORDS.numTrap,
  trap_nights: COLLECTION_WORDS.trapNights,
  identified_by: COLLECTION_WORDS.identifiedBy,
  comments: COLLECTION_WORDS.comments,
  'arthropods.*.species': COLLECTION_WORDS.species,
  'arthropods.*.sex': COLLECTION_WORDS.sex,
  'arthropods.*.num_count': COLLECTION_WORDS.count,
  'location.shape.coordinates.0': COLLECTION_WORDS.longitude,
  'location.shape.coordinates.1': COLLECTION_WORDS.latitude,
  'location.coordinate_precision': COLLECTION_WORDS.precision,
};

/** The form's own values: the collection payload plus the chosen site's localId. */
export type CollectionFormValues = {
  siteLocalId: string;
  collection_date: string;
  collection_date_date_only: boolean;
  trap?: number;
  num_trap?: number;
  trap_nights?: number;
  trap_problem_bit: boolean;
  lures: number[];
  identified_by?: string;
  comments?: string;
  arthropods: { species?: number; sex?: number; num_count?: number }[];
  location?: {
    shape: { type: 'Point'; coordinates: [number | undefined, number | undefined] };
    coordinate_precision?: number;
  };
};

/**
 * What an edited collection already holds on this tablet (contract §6 rules the server would
 * otherwise refuse with a 422): its pools' counts, and the day of its earliest pool test.
 */
export type CollectionHoldings = {
  pools: readonly { species: number; sex: number; num_count: number }[];
  firstTestDay: string | null;
  describe: (species: number, sex: number) => string;
};

/** Problems of the edited counts and date against what the collection's pools and tests hold. */
function holdingsIssues(
  v: {
    collection_date: string;
    arthropods?: { species: number; sex: number; num_count: number }[] | null;
  },
  holdings: CollectionHoldings,
  intl: IntlShape,
): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const rows = v.arthropods ?? [];
  for (const over of poolOverflows(holdings.pools, rows)) {
    const what = holdings.describe(over.species, over.sex);
    const index = rows.findIndex((r) => speciesSexKey(r) === speciesSexKey(over));
    issues.push({
      path: index < 0 ? ['arthropods'] : ['arthropods', index, 'num_count'],
      message: countBelowPooledMessage(over.pooled, what, index < 0),
    });
  }
  // The form's date carries the device's offset, so its first ten characters are the local day.
  const day = v.collection_date.slice(0, 10);
  if (holdings.firstTestDay && testBeforeCollection(holdings.firstTestDay, day)) {
    issues.push({
      path: ['collection_date'],
      message: testDateMessages.formCollectionDate(dateIn(intl, holdings.firstTestDay, true)),
    });
  }
  return issues;
}

/**
 * The shared collection schema, fed from the form: the date input gets the device's offset, the
 * site is a localId, and the rules checkable offline are added: the F-Mixed rule, at the Zero
 * Site a location and, when editing, what the collection's pools and tests already hold.
 */
export function collectionFormSchema(
  intl: IntlShape,
  sexes: readonly Sex[],
  zeroSiteIds: ReadonlySet<string>,
  holdings?: CollectionHoldings,
) {
  const base = collectionCreate.omit({
    site: true,
    collection_date: true,
    location: true,
    arthropods: true,
  });
  return base
    .extend({
      siteLocalId: z.string().min(1, {
        message: intl.formatMessage({
          id: 'collectionForm.chooseSite',
          defaultMessage: 'Choose a site',
        }),
      }),
      collection_date: z.preprocess(
        (v) => (typeof v === 'string' && v !== '' ? toIsoWithOffset(v) : undefined),
        collectionCreate.shape.collection_date,
      ),
      location: locationInput.optional(),
      arthropods: collectionCreate.shape.arthropods.superRefine((rows, ctx) => {
        for (const issue of mixedConditionConflicts(rows ?? [], [...sexes])) {
          ctx.addIssue({
            code: 'custom',
            path: issue.path
              .split('.')
              .slice(1)
              .map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
            message: issue.message,
          });
        }
      }),
    })
    .superRefine((v, ctx) => {
      if (zeroSiteIds.has(v.siteLocalId) && !v.location) {
        ctx.addIssue({
          code: 'custom',
          path: ['location'],
          message: intl.formatMessage({
            id: 'collectionForm.zeroSiteLocation',
            defaultMessage: 'At the Zero Site, give the location of the trap',
          }),
        });
      }
      if (holdings) {
        for (const issue of holdingsIssues(v, holdings, intl))
          ctx.addIssue({ code: 'custom', ...issue });
      }
    });
}

/** Fields the collection form edits; others (collection_num, surv_year...) pass through edits. */
export const COLLECTION_FORM_KEYS = [
  'collection_date',
  'collection_date_date_only',
  'trap',
  'num_trap',
  'trap_nights',
  'trap_problem_bit',
  'lures',
  'identified_by',
  'comments',
  'arthropods',
  'location',
];
