import { useId } from 'react';
import {
  INTERVALS,
  PT_ESTIMATES,
  TARGET_DISEASES,
  type Interval,
  type PtEstimate,
  type TargetDisease,
} from '#shared/reports';
import { useI18n } from '../../lib/i18n';
import { Field } from '../../ui/form/field';
import {
  APPLIES,
  estimatorLabel,
  intervalLabel,
  REPORT_KINDS,
  reportShort,
  type ReportChoice,
  type ReportKind,
} from './report-choice';

export type Option = { value: string; label: string };

/** The BFF's parameter names → the picker that shows its 422 message. */
export type PickerErrors = Partial<
  Record<
    'report' | 'years' | 'interval' | 'species' | 'traps' | 'bySpecies' | 'target' | 'estimator',
    string
  >
>;

const PARAM_TO_PICKER: Record<string, keyof PickerErrors> = {
  year: 'years',
  target_year: 'years',
  interval: 'interval',
  species: 'species',
  trap: 'traps',
  separate_by: 'bySpecies',
  target_disease: 'target',
  pt_estimate: 'estimator',
};

/**
 * A 422's `fields` → messages per picker; a parameter no picker shows goes to `report`. `say`
 * words a field in the person's language (report-problem-words.ts).
 */
export function pickerErrors<F extends { path: string; message: string }>(
  fields: F[],
  say: (field: F) => string = (f) => f.message,
): PickerErrors {
  const out: PickerErrors = {};
  for (const f of fields) {
    const at = PARAM_TO_PICKER[f.path] ?? 'report';
    const text = at === 'report' ? `${f.path}: ${say(f)}` : say(f);
    out[at] = out[at] ? `${out[at]}; ${text}` : text;
  }
  return out;
}

function FieldMessage({ id, text }: { id: string; text?: string }) {
  return text ? (
    <p className="field-error" id={id} role="alert">
      {text}
    </p>
  ) : null;
}

/** Ticks for a list; none ticked means all, which the summary line says. */
function CheckList({
  legend,
  options,
  picked,
  onChange,
  error,
  allWord,
}: {
  legend: string;
  options: Option[];
  picked: string[];
  onChange: (next: string[]) => void;
  error?: string;
  allWord: string;
}) {
  const errorId = useId();
  const names = options.filter((o) => picked.includes(o.value)).map((o) => o.value);
  const summary = names.length === 0 ? allWord : names.join(', ');
  return (
    <details className="report-picker report-checklist" open={Boolean(error)}>
      <summary>
        <span className="label">{legend}</span>: <span>{summary}</span>
      </summary>
      <fieldset
        className="checks"
        aria-describedby={error ? errorId : undefined}
        aria-invalid={error ? true : undefined}
      >
        <legend className="report-sr-only">{legend}</legend>
        {options.map((o) => (
          <label key={o.value} className="check">
            <input
              type="checkbox"
              checked={picked.includes(o.value)}
              onChange={(e) =>
                onChange(
                  e.target.checked ? [...picked, o.value] : picked.filter((v) => v !== o.value),
                )
              }
            />
            {o.label}
          </label>
        ))}
        {picked.length ? (
          <button type="button" className="button button-quiet" onClick={() => onChange([])}>
            {allWord}
          </button>
        ) : null}
      </fieldset>
      <FieldMessage id={errorId} text={error} />
    </details>
  );
}

type Props = {
  choice: ReportChoice;
  onChange: (next: ReportChoice) => void;
  /** Seasons offered, newest first. */
  seasons: number[];
  species: Option[];
  traps: Option[];
  targets: Partial<Record<TargetDisease, string>>;
  errors: PickerErrors;
};

/** What to report on: only the pickers the chosen report takes are shown. */
export function ReportPickers({
  choice,
  onChange,
  seasons,
  species,
  traps,
  targets,
  errors,
}: Props) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const set = <K extends keyof ReportChoice>(key: K, value: ReportChoice[K]) =>
    onChange({ ...choice, [key]: value });
  const applies = APPLIES[choice.report];
  const reportErrorId = useId();
  const yearsErrorId = useId();
  return (
    <div className="report-pickers">
      <fieldset
        className="report-kinds"
        aria-describedby={errors.report ? reportErrorId : undefined}
      >
        <legend>{t({ id: 'reports.picker.report', defaultMessage: 'Report' })}</legend>
        {REPORT_KINDS.map((k: ReportKind) => (
          <label key={k} className={choice.report === k ? 'report-kind active' : 'report-kind'}>
            <input
              type="radio"
              name="report-kind"
              value={k}
              checked={choice.report === k}
              onChange={() => set('report', k)}
            />
            {reportShort(intl, k)}
          </label>
        ))}
        <FieldMessage id={reportErrorId} text={errors.report} />
      </fieldset>

      <div className="report-grid">
        {applies.manyYears ? (
          <fieldset
            className="report-picker checks report-seasons"
            aria-describedby={errors.years ? yearsErrorId : undefined}
            aria-invalid={errors.years ? true : undefined}
          >
            <legend className="label">
              {t({ id: 'reports.picker.seasons', defaultMessage: 'Seasons' })}
            </legend>
            {seasons.map((y) => (
              <label key={y} className="check">
                <input
                  type="checkbox"
                  checked={choice.years.includes(y)}
                  onChange={(e) => {
                    const next = e.target.checked
                      ? [...choice.years, y].sort((a, b) => b - a)
                      : choice.years.filter((v) => v !== y);
                    // A report needs a season: unticking the only one leaves it ticked.
                    if (next.length) set('years', next);
                  }}
                />
                {y}
              </label>
            ))}
            <FieldMessage id={yearsErrorId} text={errors.years} />
          </fieldset>
        ) : (
          <Field
            label={t({ id: 'reports.picker.season', defaultMessage: 'Season' })}
            error={errors.years}
          >
            <select
              value={Math.max(...choice.years)}
              onChange={(e) => set('years', [Number(e.target.value)])}
            >
              {seasons.map((y) => (
                <option key={y} value={y}>
                  {y}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field
          label={t({ id: 'reports.picker.interval', defaultMessage: 'Interval' })}
          error={errors.interval}
        >
          <select
            value={choice.interval}
            onChange={(e) => set('interval', e.target.value as Interval)}
          >
            {INTERVALS.map((i) => (
              <option key={i} value={i}>
                {intervalLabel(intl, i)}
              </option>
            ))}
          </select>
        </Field>
        <label className="check report-picker">
          <input
            type="checkbox"
            checked={choice.bySpecies}
            onChange={(e) => set('bySpecies', e.target.checked)}
          />
          {t({ id: 'reports.picker.bySpecies', defaultMessage: 'A line for each species' })}
        </label>
        {errors.bySpecies ? <p className="field-error">{errors.bySpecies}</p> : null}
        {applies.infection ? (
          <>
            <Field
              label={t({ id: 'reports.picker.target', defaultMessage: 'Target virus' })}
              error={errors.target}
            >
              <select
                value={choice.target}
                onChange={(e) => set('target', e.target.value as TargetDisease)}
              >
                {TARGET_DISEASES.map((t) => (
                  <option key={t} value={t}>
                    {targets[t] ? `${t} (${targets[t]})` : t}
                  </option>
                ))}
              </select>
            </Field>
            <Field
              label={t({ id: 'reports.picker.estimator', defaultMessage: 'Estimator' })}
              error={errors.estimator}
            >
              <select
                value={choice.estimator}
                onChange={(e) => set('estimator', e.target.value as PtEstimate)}
              >
                {PT_ESTIMATES.map((p) => (
                  <option key={p} value={p}>
                    {estimatorLabel(intl, p)}
                  </option>
                ))}
              </select>
            </Field>
          </>
        ) : null}
      </div>
      <div className="report-grid report-grid-two">
        <CheckList
          legend={t({ id: 'reports.picker.species', defaultMessage: 'Species' })}
          options={species}
          picked={choice.species}
          onChange={(v) => set('species', v)}
          error={errors.species}
          allWord={t({ id: 'reports.picker.allSpecies', defaultMessage: 'All species' })}
        />
        <CheckList
          legend={t({ id: 'reports.picker.traps', defaultMessage: 'Trap types' })}
          options={traps}
          picked={choice.traps}
          onChange={(v) => set('traps', v)}
          error={errors.traps}
          allWord={t({ id: 'reports.picker.allTraps', defaultMessage: 'All trap types' })}
        />
      </div>
    </div>
  );
}
