import { addTask } from '@/lib/plan';
import type { ClipboardSlice } from './editor-state';
import { copyTasks, pasteTasks, type ClipboardContent } from './clipboard';
import type { Slice } from './slice-kit';

// Copy, paste and duplicate. The clipboard is this editor's own (not the system's): copying
// is no edit; a paste or duplicate adds all its copies, selected, as one undo step.

export const clipboardSlice: Slice<ClipboardSlice> = ({ set, get, edit }) => {
  /** Adds copies of the clipboard's tasks under fresh ids, selected, as one step. */
  const insertCopies = (clip: ClipboardContent) => {
    const { tasks, positions } = pasteTasks(get().doc, clip);
    edit((doc) => tasks.reduce((next, task) => addTask(next, task, positions[task.task_id]), doc), {
      selectedTaskIds: tasks.map((t) => t.task_id),
      selectedEdgeId: null,
    });
  };
  const copyOfSelection = () => copyTasks(get().doc, new Set(get().selectedTaskIds));

  return {
    clipboard: null,

    copySelection() {
      const clip = copyOfSelection();
      if (clip) set({ clipboard: clip, notice: { kind: 'info', message: `Copied ${clip.tasks.length} task${clip.tasks.length === 1 ? '' : 's'}`, taskIds: [] } });
    },

    paste() {
      const clip = get().clipboard;
      if (clip) insertCopies(clip);
    },

    duplicateSelection() {
      const clip = copyOfSelection();
      if (clip) insertCopies(clip);
    },
  };
};
