import type { ReactNode } from 'react';

type Props = {
  /** The agency data download panel (the exports feature), composed in by the app. */
  exports?: ReactNode;
};

/** Reports: the district's surveillance figures, computed by the BFF. */
export function ReportsScreen({ exports }: Props) {
  return (
    <section className="screen">
      <h1>Reports</h1>
      {exports}
    </section>
  );
}
