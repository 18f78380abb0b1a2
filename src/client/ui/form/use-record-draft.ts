import { useRef } from 'react';
import { useDataAtOpen } from './use-data-at-open';
import type { DraftStore } from '../../lib/drafts/draft-keeper';
import { useDropDraftsWhenGone, type DraftPlace } from './use-form-draft';

/**
 * What a record form's screen needs for its draft and its save, once: the record's data as the
 * form opened with it (the form fills from it and saves against it: a pull may change the row
 * meanwhile), the draft's place (`record` null: a new record under `parent`), the drafts dropped
 * once the record is gone, and `savedAgainst()`: updateRecord's `opened`, the data at open with
 * the values a restored draft typed over (DraftPlace.typedOver).
 */
export function useRecordDraft<T extends Record<string, unknown>>(options: {
  store: DraftStore;
  form: string;
  record: string | null;
  parent: string | null;
  /** The record's data as the live query gives it; undefined until read (and for a new record). */
  data: T | undefined;
  /** The record was deleted or left the tablet: its form will not open again. */
  gone: boolean;
}) {
  const { store, form, record, parent, data, gone } = options;
  const opened = useDataAtOpen(record ?? '', data);
  const typedOver = useRef<Record<string, unknown>>({});
  useDropDraftsWhenGone(gone, store, form, record);
  const place: DraftPlace = { store, form, record, parent, base: opened, typedOver };
  return {
    opened,
    place,
    savedAgainst: (): Record<string, unknown> => ({ ...opened, ...typedOver.current }),
  };
}
