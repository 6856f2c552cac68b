'use client';

import { useEditor, useEditorStore } from './editor-context';

const STYLE = {
  refusal: 'border-rose-300 bg-rose-50 text-rose-900',
  error: 'border-rose-300 bg-rose-50 text-rose-900',
  info: 'border-sky-300 bg-sky-50 text-sky-900',
};

/** Why a connection or edit was refused, in words, while the cycle stays highlighted. */
export function NoticeBar() {
  const store = useEditorStore();
  const notice = useEditor((s) => s.notice);
  if (!notice) return null;
  return (
    <div role={notice.kind === 'info' ? 'status' : 'alert'} className={`pointer-events-auto flex items-center gap-3 rounded-md border px-3 py-2 text-sm shadow ${STYLE[notice.kind]}`}>
      <span>{notice.message}</span>
      <button type="button" aria-label="Dismiss message" className="rounded px-1 text-current/70 hover:bg-black/5" onClick={() => store.getState().setNotice(null)}>
        ✕
      </button>
    </div>
  );
}
