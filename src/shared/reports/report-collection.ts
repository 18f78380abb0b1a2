import { z } from 'zod';
import { abundance, collection } from '../schemas/collection';
import { agency, sex, species, trap } from '../schemas/lookups';

/**
 * A collection as the records service lists it with `populate[]=arthropods&populate[]=trap&
 * populate[]=agency` (contract §4): the reports read the species' `display_name`, the sex's
 * `type`, the trap's `acronym` and the agency's `code` from the populated records.
 */
export const reportCollection = collection.extend({
  trap,
  agency,
  arthropods: z.array(abundance.extend({ species, sex })).nullable().optional(),
});
export type ReportCollection = z.infer<typeof reportCollection>;
