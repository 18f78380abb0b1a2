import { Fragment, useState } from 'react';
import {
  useFieldArray,
  useWatch,
  type Control,
  type FieldErrors,
  type UseFormRegister,
  type UseFormSetFocus,
} from 'react-hook-form';
import type { LookupsDocument, Species } from '#shared';
import { translateRule, useI18n } from '../../lib/i18n';
import { asNumber } from '../../ui/form/form-errors';
import { errorAt } from '../../ui/form/error-at';
import { listKey } from '../../ui/form/list-key';
import type { CollectionFormValues } from './collection-schema';
import { defaultFemaleSex } from './common-species';
import './abundance-rows.css';

type Props = {
  control: Control<CollectionFormValues, unknown, unknown>;
  register: UseFormRegister<CollectionFormValues>;
  setFocus: UseFormSetFocus<CollectionFormValues>;
  errors: FieldErrors<CollectionFormValues>;
  lookups: LookupsDocument;
  common: readonly Species[];
};

const speciesName = (s: Species) => s.display_name ?? s.full_name;

type Row = CollectionFormValues['arthropods'][number];

/** A count the record can hold (contract §3: an integer, 0 or more). */
const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/**
 * Abundance rows: species, sex and count, one row per species and sex. Quick-add buttons for the
 * agency's common species never create a duplicate row: they jump to the existing one.
 */
export function AbundanceRows({ control, register, setFocus, errors, lookups, common }: Props) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const { fields, append, remove, insert } = useFieldArray({ control, name: 'arthropods' });
  const rows = useWatch({ control, name: 'arthropods' }) ?? [];
  // The last removed row, so a stray tap on "Remove row N" costs nothing: Undo puts it back.
  const [removed, setRemoved] = useState<{ index: number; row: Row; label: string } | null>(null);
  const removeRow = (i: number) => {
    const row = { ...rows[i] };
    const sp = lookups.species.find((s) => s.id === row.species);
    const sx = lookups.sex.find((s) => s.id === row.sex);
    const what = [sp ? speciesName(sp) : null, sx?.name, row.num_count].filter(
      (x) => x !== null && x !== undefined,
    );
    setRemoved({
      index: i,
      row,
      label: what.length
        ? t(
            { id: 'abundance.rowRemovedWhat', defaultMessage: 'Row {row} removed ({what})' },
            { row: i + 1, what: what.join(' ') },
          )
        : t({ id: 'abundance.rowRemoved', defaultMessage: 'Row {row} removed' }, { row: i + 1 }),
    });
    remove(i);
  };
  const undo = () => {
    if (!removed) return;
    const at = Math.min(removed.index, rows.length);
    insert(at, removed.row, { focusName: `arthropods.${at}.num_count` });
    setRemoved(null);
  };
  // Only counts that can be saved add up: a typo (-7, 2.5) is not taken off or added to the
  // total, and the rows left out are named beside it.
  const total = rows.reduce((sum, r) => sum + (isCount(r?.num_count) ? r.num_count : 0), 0);
  const notCounted = rows.flatMap((r, i) =>
    r?.num_count === undefined || isCount(r.num_count) ? [] : [i + 1],
  );
  const female = defaultFemaleSex(lookups.sex);
  const quickAdd = (species: Species) => {
    const existing = rows.findIndex((r) => r?.species === species.id && r?.sex === female?.id);
    if (existing >= 0) {
      setFocus(`arthropods.${existing}.num_count`);
      return;
    }
    append(
      { species: species.id, sex: female?.id, num_count: undefined },
      { focusName: `arthropods.${rows.length}.num_count` },
    );
  };
  const rowsError = translateRule(intl, errorAt(errors, 'arthropods'));
  // Where the removed row was, under the thumb that tapped Remove: not below the last row, where
  // on a phone it would be off the screen or under the Save bar.
  const undoNote = removed ? (
    <li className="undo-row">
      <div className="row wrap undo" role="status">
        <span>{removed.label}</span>
        <button type="button" className="button" onClick={undo}>
          {t({ id: 'abundance.undo', defaultMessage: 'Undo' })}
        </button>
      </div>
    </li>
  ) : null;
  return (
    <fieldset className="fieldset">
      <legend>{t({ id: 'abundance.title', defaultMessage: 'Abundance' })}</legend>
      <div className="row wrap">
        {common.map((s) => (
          <button key={s.id} type="button" className="button" onClick={() => quickAdd(s)}>
            {t(
              { id: 'abundance.addSpecies', defaultMessage: 'Add {species}' },
              { species: speciesName(s) },
            )}
          </button>
        ))}
        <button
          type="button"
          className="button"
          onClick={() => append({ species: undefined, sex: female?.id, num_count: undefined })}
        >
          {t({ id: 'abundance.addRow', defaultMessage: 'Add row' })}
        </button>
      </div>
      {fields.length === 0 ? (
        <p className="muted">
          {t({
            id: 'abundance.empty',
            defaultMessage: 'No mosquitoes counted yet. An empty trap is saved with no rows.',
          })}
        </p>
      ) : null}
      <ol className="abundance">
        {fields.map((field, i) => {
          const n = i + 1;
          const err = (name: string) =>
            translateRule(intl, errorAt(errors, `arthropods.${i}.${name}`));
          const choose = t({ id: 'form.choose', defaultMessage: 'Choose…' });
          return (
            <Fragment key={field.id}>
              {removed?.index === i ? undoNote : null}
              <li className="abundance-row">
                <div className={err('species') ? 'field field-invalid' : 'field'}>
                  <label htmlFor={`${field.id}-species`}>
                    {t({ id: 'abundance.species', defaultMessage: 'Species (row {n})' }, { n })}
                  </label>
                  <select
                    key={listKey(lookups.species)}
                    id={`${field.id}-species`}
                    aria-invalid={err('species') ? true : undefined}
                    aria-describedby={err('species') ? `${field.id}-species-error` : undefined}
                    {...register(`arthropods.${i}.species`, { setValueAs: asNumber })}
                  >
                    <option value="">{choose}</option>
                    {lookups.species.map((s) => (
                      <option key={s.id} value={s.id}>
                        {speciesName(s)}
                      </option>
                    ))}
                  </select>
                  {err('species') ? (
                    <p className="field-error" id={`${field.id}-species-error`} role="alert">
                      {err('species')}
                    </p>
                  ) : null}
                </div>
                <div className={err('sex') ? 'field field-invalid' : 'field'}>
                  <label htmlFor={`${field.id}-sex`}>
                    {t({ id: 'abundance.sex', defaultMessage: 'Sex (row {n})' }, { n })}
                  </label>
                  <select
                    key={listKey(lookups.sex)}
                    id={`${field.id}-sex`}
                    aria-invalid={err('sex') ? true : undefined}
                    aria-describedby={err('sex') ? `${field.id}-sex-error` : undefined}
                    {...register(`arthropods.${i}.sex`, { setValueAs: asNumber })}
                  >
                    <option value="">{choose}</option>
                    {lookups.sex.map((s) => (
                      <option key={s.id} value={s.id}>
                        {s.name}
                      </option>
                    ))}
                  </select>
                  {err('sex') ? (
                    <p className="field-error" id={`${field.id}-sex-error`} role="alert">
                      {err('sex')}
                    </p>
                  ) : null}
                </div>
                <div className={err('num_count') ? 'field field-invalid' : 'field'}>
                  <label htmlFor={`${field.id}-count`}>
                    {t({ id: 'abundance.count', defaultMessage: 'Count (row {n})' }, { n })}
                  </label>
                  <input
                    id={`${field.id}-count`}
                    inputMode="numeric"
                    enterKeyHint="next"
                    autoComplete="off"
                    aria-invalid={err('num_count') ? true : undefined}
                    aria-describedby={err('num_count') ? `${field.id}-count-error` : undefined}
                    {...register(`arthropods.${i}.num_count`, { setValueAs: asNumber })}
                  />
                  {err('num_count') ? (
                    <p className="field-error" id={`${field.id}-count-error`} role="alert">
                      {err('num_count')}
                    </p>
                  ) : null}
                </div>
                <button type="button" className="button button-quiet" onClick={() => removeRow(i)}>
                  {t({ id: 'abundance.removeRow', defaultMessage: 'Remove row {n}' }, { n })}
                </button>
              </li>
            </Fragment>
          );
        })}
        {removed && removed.index >= fields.length ? undoNote : null}
      </ol>
      {rowsError ? (
        <p className="field-error" role="alert">
          {rowsError}
        </p>
      ) : null}
      <p className="total" aria-live="polite">
        {t(
          { id: 'abundance.total', defaultMessage: 'Total: <b>{total}</b>' },
          {
            total: intl.formatNumber(total),
            b: (text) => (
              <strong key="total" data-testid="abundance-total">
                {text}
              </strong>
            ),
          },
        )}
        {notCounted.length > 0 ? (
          <span className="muted">
            {' '}
            {t(
              {
                id: 'abundance.notCounting',
                defaultMessage:
                  '(not counting {count, plural, one {row} other {rows}} {rows}: a count is a whole number, 0 or more)',
              },
              {
                count: notCounted.length,
                rows: intl.formatList(notCounted.map(String), { type: 'unit', style: 'short' }),
              },
            )}
          </span>
        ) : null}
      </p>
    </fieldset>
  );
}
