import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
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
  return (
    <div className="form-grid">
      <Field label="Latitude" error={errors.latitude} hint={latitudeHint}>
        <input inputMode="decimal" autoComplete="off" {...latitude} />
      </Field>
      <Field label="Longitude" error={errors.longitude}>
        <input inputMode="decimal" autoComplete="off" {...longitude} />
      </Field>
      <Field label="Coordinate precision" error={errors.precision}>
        <select key={listKey(precisions)} {...precision}>
          <option value="">Choose…</option>
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
