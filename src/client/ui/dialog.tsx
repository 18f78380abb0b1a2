import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal sheet over the current screen. The screen under it stays mounted (its forms keep what
 * was typed); only focus and pointer are held by the sheet while it is open.
 */
export function Dialog({
  open,
  title,
  children,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  onClose?: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) {
      if (typeof el.showModal === 'function') el.showModal();
      else el.setAttribute('open', '');
    } else if (!open && el.open) {
      if (typeof el.close === 'function') el.close();
      else el.removeAttribute('open');
    }
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="sheet"
      aria-label={title}
      onCancel={(e) => {
        e.preventDefault();
        onClose?.();
      }}
    >
      {open ? (
        <>
          <h2>{title}</h2>
          {children}
        </>
      ) : null}
    </dialog>
  );
}
