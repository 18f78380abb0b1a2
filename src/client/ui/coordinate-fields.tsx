import { useRef, type CSSProperties, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { flipTypedSign, normaliseTypedCoordinate } from '../lib/geo';
import { useI18n } from '../lib/i18n';
import { Field } from './form/field';
import { listKey } from './form/list-key';

type Props = {
  /** react-hook-form registrations of latitude, longitude and coordinate precision. */
  latitude: UseFormRegisterReturn;
  longitude: UseFormRegisterReturn;
  precision: UseFormRegisterReturn;
  precisions: ReadonlyArray<{ id: number; name: string }>;
  errors: { latitude?: string | null; longitude?: string | null; precision?: string | null };
  /** Shown under latitude, e.g. "these look swapped". */
  latitudeHint?: ReactNode;
};

/** Read by screen readers, not shown: the sign button's name. */
const UNSEEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
};

type InputProps = {
  registration: UseFormRegisterReturn;
  axis: 'latitude' | 'longitude';
  /** Given by Field (its label's target and the messages that describe it). */
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
};

/**
 * A typed coordinate with a large sign button beside it: the decimal keypads of iOS and of many
 * Android keyboards have no minus key, and west of Greenwich a longitude is negative. A comma is
 * read as the decimal point and a trailing hemisphere letter as the sign ("121.49 W"), rewritten
 * in the field as they are typed, so what is shown is what is saved.
 */
function CoordinateInput({ registration, axis, ...field }: InputProps) {
  const intl = useI18n();
  const input = useRef<HTMLInputElement | null>(null);
  const { ref, onChange, ...rest } = registration;
  const rewrite = (el: HTMLInputElement, value: string) => {
    const caret = el.selectionStart;
    const moved = value.length - el.value.length;
    el.value = value;
    if (caret !== null && document.activeElement === el)
      el.setSelectionRange(caret + moved, caret + moved);
  };
  return (
    <div style={{ display: 'flex', gap: '0.5rem', alignItems: 'stretch' }}>
      <input
        {...field}
        {...rest}
        inputMode="decimal"
        autoComplete="off"
        style={{ flex: '1 1 auto', minWidth: 0 }}
        ref={(el) => {
          input.current = el;
          ref(el);
        }}
        onChange={(e) => {
          const typed = normaliseTypedCoordinate(e.target.value, axis);
          if (typed !== e.target.value) rewrite(e.target, typed);
          return onChange(e);
        }}
      />
      <button
        type="button"
        className="button"
        style={{ flex: 'none', minWidth: 56, fontSize: '1.25rem', padding: '0 0.75rem' }}
        onClick={() => {
          const el = input.current;
          if (!el) return;
          el.value = flipTypedSign(el.value);
          void onChange({ target: el, type: 'change' });
          // A sign before any digit: the digits come next.
          if (el.value === '-') el.focus();
        }}
      >
        <span aria-hidden="true">+/−</span>
        <span style={UNSEEN}>
          {intl.formatMessage(
            {
              id: 'coordinates.changeSign',
              defaultMessage:
                '{axis, select, latitude {Change sign of latitude} other {Change sign of longitude}}',
            },
            { axis },
          )}
        </span>
      </button>
    </div>
  );
}

/**
 * Typed coordinates and their precision, the same wherever a place is entered (a site, a
 * collection at the Zero Site). Latitude first: that is how coordinates are read aloud.
 */
export function CoordinateFields({
  latitude,
  longitude,
  precision,
  precisions,
  errors,
  latitudeHint,
}: Props) {
  const intl = useI18n();
  const t = intl.formatMessage;
  return (
    <div className="form-grid">
      <Field
        label={t({ id: 'coordinates.latitude', defaultMessage: 'Latitude' })}
        error={errors.latitude}
        hint={latitudeHint}
      >
        <CoordinateInput registration={latitude} axis="latitude" />
      </Field>
      <Field
        label={t({ id: 'coordinates.longitude', defaultMessage: 'Longitude' })}
        error={errors.longitude}
      >
        <CoordinateInput registration={longitude} axis="longitude" />
      </Field>
      <Field
        label={t({ id: 'coordinates.precision', defaultMessage: 'Coordinate precision' })}
        error={errors.precision}
      >
        <select key={listKey(precisions)} {...precision}>
          <option value="">{t({ id: 'form.choose', defaultMessage: 'Choose…' })}</option>
          {precisions.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}
