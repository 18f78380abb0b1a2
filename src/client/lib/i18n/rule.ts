import type { MessageDescriptor } from 'react-intl';

/** An English sentence the app knows, and its message in the catalogues. */
export type Rule = {
  /** The English text as src/shared (or the records service) writes it. */
  pattern: RegExp;
  message: MessageDescriptor;
  /** The pattern's groups, by name, as the message's values. */
  values?: readonly string[];
};
