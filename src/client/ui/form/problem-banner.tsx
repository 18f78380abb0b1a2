import { Banner } from '../banner';

export type Problem = {
  code: string;
  message: string;
  fields?: { path: string; message: string }[];
} | null;

/** The server's refusal of a record, shown at the top of its form until it is fixed. */
export function ProblemBanner({ problem }: { problem: Problem }) {
  if (!problem) return null;
  return (
    <Banner tone="error">
      <strong>The server did not accept this record:</strong> {problem.message}. Fix it below and
      save again.
    </Banner>
  );
}
