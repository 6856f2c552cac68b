'use client';

import { useId, useRef, useState, type ReactNode } from 'react';
import { ModalDialog } from './modal-dialog';
import { SMALL_BUTTON } from './styles';

/**
 * A button whose action is asked about first: what it does is said in the dialog, and
 * Cancel (focused first, and Escape) leaves everything as it was. For what starts calls or
 * cannot be undone: running a plan, cancelling a run.
 */
export function ConfirmButton({
  label,
  title,
  children,
  confirmLabel,
  onConfirm,
  disabled,
  className = SMALL_BUTTON,
  confirmClassName,
}: {
  label: ReactNode;
  title: string;
  /** What will happen, in a sentence or two. */
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  className?: string;
  confirmClassName: string;
}) {
  const [open, setOpen] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const textId = useId();
  return (
    <>
      <button type="button" className={className} disabled={disabled} onClick={() => setOpen(true)}>
        {label}
      </button>
      {open && (
        <ModalDialog role="alertdialog" labelledBy={titleId} describedBy={textId} initialFocus={cancel} onCancel={() => setOpen(false)}>
          <div className="w-full max-w-md space-y-3 rounded-lg bg-white p-5 shadow-xl">
            <h2 id={titleId} className="text-base font-semibold">
              {title}
            </h2>
            <div id={textId} className="text-sm text-slate-700">
              {children}
            </div>
            <div className="flex justify-end gap-2">
              <button ref={cancel} type="button" className={SMALL_BUTTON} onClick={() => setOpen(false)}>
                Cancel
              </button>
              <button
                type="button"
                className={confirmClassName}
                onClick={() => {
                  setOpen(false);
                  onConfirm();
                }}
              >
                {confirmLabel}
              </button>
            </div>
          </div>
        </ModalDialog>
      )}
    </>
  );
}
