import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';

/**
 * A set of lookup ids as checkboxes under a legend (a collection's lures, a site's land usage):
 * the field holds the ids checked, in the order they were checked. Nothing is drawn when the
 * lookup list is empty (lists not read yet).
 */
export function IdCheckboxes<T extends FieldValues>({
  control,
  name,
  legend,
  options,
}: {
  control: Control<T>;
  name: Path<T>;
  legend: string;
  options: readonly { id: number; label: string }[];
}) {
  if (options.length === 0) return null;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => {
        const selected = new Set<number>((field.value as number[] | undefined) ?? []);
        return (
          <fieldset className="checks">
            <legend>{legend}</legend>
            {options.map((o) => (
              <label key={o.id} className="check">
                <input
                  type="checkbox"
                  checked={selected.has(o.id)}
                  onChange={(e) => {
                    const next = new Set(selected);
                    if (e.target.checked) next.add(o.id);
                    else next.delete(o.id);
                    field.onChange([...next]);
                  }}
                />
                {o.label}
              </label>
            ))}
          </fieldset>
        );
      }}
    />
  );
}
