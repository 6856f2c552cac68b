import { setPositions, type PlanDocument } from '@/lib/plan';
import type { LayoutSlice, Position } from './editor-state';
import type { Slice } from './slice-kit';

// Where tasks are drawn: drags, arrow-key nudges and automatic layout. Positions are part of
// the document (saved, undoable), but a first layout of a plan opened without them is not an
// edit, and a burst of arrow-key presses is a single undo step.

/** Presses of the arrow keys closer together than this are one move, hence one undo step. */
export const NUDGE_BURST_MS = 500;

export const layoutSlice: Slice<LayoutSlice> = ({ set, get, edit, history }) => {
  // The document the last arrow-key press left, and when: a press that finds both still
  // current continues that burst instead of making a new undo step.
  let nudged: { doc: PlanDocument; at: number } | null = null;

  return {
    moveTasks(positions) {
      edit((doc) => setPositions(doc, positions));
    },

    nudgeSelection(dx, dy, now = Date.now()) {
      const { doc, selectedTaskIds, readOnly } = get();
      if (readOnly) return;
      const positions: Record<string, Position> = {};
      for (const id of selectedTaskIds) {
        const at = doc.view.positions[id];
        if (at) positions[id] = { x: at.x + dx, y: at.y + dy };
      }
      if (Object.keys(positions).length === 0) return;
      const continuing = nudged !== null && nudged.doc === doc && now - nudged.at < NUDGE_BURST_MS;
      // Later presses of a burst amend the step the first one made, so undo takes the whole burst back.
      if (continuing) history.pause();
      try {
        edit((current) => setPositions(current, positions));
      } finally {
        if (continuing) history.resume();
      }
      nudged = { doc: get().doc, at: now };
    },

    applyLayout(positions, { undoable }) {
      // Laying out a plan that was opened without positions is not an edit: it is neither
      // an undo step nor an unsaved change. If the operator already edited before it
      // arrived, it becomes an ordinary step, so undo never loses positions.
      const { doc, savedDoc } = get();
      if (undoable || doc !== savedDoc) {
        edit((current) => setPositions(current, positions));
        return;
      }
      const placed = setPositions(doc, positions);
      history.pause();
      set({ doc: placed, savedDoc: placed });
      history.resume();
    },
  };
};
