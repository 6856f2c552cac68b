'use client';

import { useEffect, useRef, type ReactNode, type RefObject } from 'react';

/**
 * A modal over the page: focus starts on `initialFocus` and goes back where it was when the
 * dialog closes; Escape cancels. `alertdialog` is for a question about something at stake.
 */
export function ModalDialog({
  role = 'dialog',
  labelledBy,
  describedBy,
  initialFocus,
  onCancel,
  layer = 'z-50',
  children,
}: {
  role?: 'dialog' | 'alertdialog';
  labelledBy: string;
  describedBy?: string;
  initialFocus: RefObject<HTMLElement | null>;
  onCancel: () => void;
  /** Stacking: a dialog that can open over another one sits on a higher layer. */
  layer?: 'z-50' | 'z-[60]';
  children: ReactNode;
}) {
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    opener.current = document.activeElement;
    initialFocus.current?.focus();
    return () => (opener.current as HTMLElement | null)?.focus?.();
  }, [initialFocus]);
  return (
    <div
      role={role}
      aria-modal="true"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      className={`fixed inset-0 ${layer} grid place-items-center bg-slate-900/40`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      {children}
    </div>
  );
}
