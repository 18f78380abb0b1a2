/**
 * A key that changes when a list's entries arrive or change. A select shows its value only if an
 * option for it exists when the value is set, and react-hook-form sets it once, when the select
 * registers: a form filled before the lists were read (or downloaded) would show "Choose…" while
 * it holds the saved choice. A new select element registers again and shows the held value.
 */
export function listKey(options: readonly { id: number }[]): string {
  return `${options.length}:${options[0]?.id ?? ''}:${options[options.length - 1]?.id ?? ''}`;
}
