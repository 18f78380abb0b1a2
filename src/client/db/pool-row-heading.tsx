import type { LookupsDocument } from '#shared';
import { dateIn, useI18n } from '../lib/i18n';
import { speciesSexLabeller } from '../lib/species-sex-label';
import { PoolHeading } from '../ui/record-number';
import type { CollectionRow, PoolRow } from './database';
import { collectionNumberOf, poolNumberOf } from './record-numbers';

/**
 * A pool as the tablet holds it, named as the vial and the lab sheet name it: "Pool 82 · Cx
 * tarsalis F-Mixed × 25", from "Collection 117 · Jul 14, 2026" (each "not yet numbered" until
 * synced). The pool's own screen and its tests' screens head with it; here, below the features,
 * so both may use it (a feature never imports another).
 */
export function PoolRowHeading({
  pool,
  collection,
  lookups,
}: {
  pool: PoolRow;
  collection: CollectionRow | null;
  lookups: LookupsDocument;
}) {
  const intl = useI18n();
  return (
    <PoolHeading
      pool={{
        number: poolNumberOf(pool),
        what: speciesSexLabeller(lookups)(pool.data.species as number, pool.data.sex as number),
        count: pool.data.num_count,
      }}
      collection={
        collection && {
          number: collectionNumberOf(collection),
          date: dateIn(
            intl,
            collection.collectionDate,
            collection.data.collection_date_date_only === true,
          ),
        }
      }
    />
  );
}
