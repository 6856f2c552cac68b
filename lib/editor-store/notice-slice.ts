import type { NoticeSlice } from './editor-state';
import type { Slice } from './slice-kit';

// What the editor tells the operator (the notice bar) and what the operator typed that is
// not yet part of the plan (invalid JSON in the inspector). Neither is an undo step.

/** The key of a JSON draft: one per task and field. */
export function jsonDraftKey(taskId: string, field: string): string {
  return `${taskId}\u0000${field}`;
}

export const noticeSlice: Slice<NoticeSlice> = ({ set, get }) => ({
  notice: null,
  jsonDrafts: {},

  setNotice: (notice) => set({ notice }),

  setJsonDraft(taskId, field, draft) {
    const key = jsonDraftKey(taskId, field);
    const { [key]: current, ...rest } = get().jsonDrafts;
    if (!draft) {
      if (current) set({ jsonDrafts: rest });
    } else if (current?.text !== draft.text || current.error !== draft.error) {
      set({ jsonDrafts: { ...rest, [key]: draft } });
    }
  },
});
