import { z } from 'zod';
import {
  collectionCreate,
  locationInput,
  mixedConditionConflicts,
  type Sex,
} from '../../../shared';
import { toIsoWithOffset } from '../../lib/dates';

export const COLLECTION_LABELS: Record<string, string> = {
  siteLocalId: 'Site',
  collection_date: 'Collection date',
  trap: 'Trap type',
  num_trap: 'Number of traps',
  trap_nights: 'Trap nights',
  identified_by: 'Identified by',
  comments: 'Comments',
  'arthropods.*.species': 'Species',
  'arthropods.*.sex': 'Sex',
  'arthropods.*.num_count': 'Count',
  'location.shape.coordinates.0': 'Longitude',
  'location.shape.coordinates.1': 'Latitude',
  'location.coordinate_precision': 'Coordinate precision',
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
 * The shared collection schema, fed from the form: the date input gets the device's offset, the
 * site is a localId, and the rules checkable offline are added: the F-Mixed rule and, at the Zero
 * Site, a location.
 */
export function collectionFormSchema(sexes: readonly Sex[], zeroSiteIds: ReadonlySet<string>) {
  const base = collectionCreate.omit({
    site: true,
    collection_date: true,
    location: true,
    arthropods: true,
  });
  return base
    .extend({
      siteLocalId: z.string().min(1, { message: 'Choose a site' }),
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
          message: 'At the Zero Site, give the location of the trap',
        });
      }
    });
}
