import { translateRule, useI18n } from '../../lib/i18n';
import { Banner } from '../banner';

export type Problem = {
  code: string;
  message: string;
  fields?: { path: string; message: string }[];
} | null;

/** The server's refusal of a record, shown at the top of its form until it is fixed. */
export function ProblemBanner({ problem }: { problem: Problem }) {
  const intl = useI18n();
  if (!problem) return null;
  return (
    <Banner tone="error">
      {intl.formatMessage(
        {
          id: 'form.serverRefused',
          defaultMessage:
            '<b>The server did not accept this record:</b> {reason}. Fix it below and save again.',
        },
        { reason: translateRule(intl, problem.message), b: (text) => <strong>{text}</strong> },
      )}
    </Banner>
  );
}
