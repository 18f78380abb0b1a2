import { Banner } from '../banner';
import { ProblemBanner, type Problem } from './problem-banner';

/** The top of a record form: the server's refusal, if any, then why the last save failed. */
export function FormProblems({
  problem,
  saveError,
}: {
  problem: Problem;
  saveError: string | null;
}) {
  return (
    <>
      <ProblemBanner problem={problem} />
      {saveError ? <Banner tone="error">{saveError}</Banner> : null}
    </>
  );
}
