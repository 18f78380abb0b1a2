import type { ReactNode } from 'react';

/** A full-width notice with optional actions; `role=status` so screen readers announce it. */
export function Banner({
  tone = 'info',
  children,
  actions,
}: {
  tone?: 'info' | 'warn' | 'error';
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className={`banner banner-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <div className="banner-text">{children}</div>
      {actions ? <div className="banner-actions">{actions}</div> : null}
    </div>
  );
}
