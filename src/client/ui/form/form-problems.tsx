import { Banner } from '../banner';
import { DraftNotice } from './draft-notice';
import { ProblemBanner, type Problem } from './problem-banner';
import type { FormDraft } from './use-form-draft';

/**
 * The top of a record form: a restored draft, the server's refusal, if any, then why the last
 * save failed.
 */
export function FormProblems({
  problem,
  saveError,
  draft,
}: {
  problem: Problem;
  saveError: string | null;
  draft?: FormDraft;
}) {
  return (
    <>
      {draft ? <DraftNotice draft={draft} /> : null}
      <ProblemBanner problem={problem} />
      {saveError ? <Banner tone="error">{saveError}</Banner> : null}
    </>
  );
}
