import type { IntlShape, MessageDescriptor } from 'react-intl';

/**
 * What code without a component (an API helper, the sync engine) has to say: a catalogue message
 * with its values, said in the person's language where it is shown, or a text as the server
 * wrote it (not translated until the server's messages carry codes).
 */
export type Said =
  { message: MessageDescriptor; values?: Record<string, string | number> } | { text: string };

export function sayIn(intl: IntlShape, said: Said): string {
  return 'text' in said ? said.text : intl.formatMessage(said.message, said.values);
}
