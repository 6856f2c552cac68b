'use client';

import type { Connection, Edge } from '@xyflow/react';
import { useCallback, useRef } from 'react';
import { checkConnection } from '@/lib/flow/connection-check';
import type { GraphIndex } from '@/lib/graph';
import type { PlannerTask } from '@/lib/plan';
import { useEditorStore } from './editor-context';

/**
 * Drawing and moving dependencies on the canvas. A connection React Flow offers is checked
 * (lib/flow/connection-check) while it is drawn, and a refusal says why in the notice bar, with
 * the tasks of a cycle it would make highlighted.
 */
export function useConnectionEdits(tasks: readonly PlannerTask[], index: GraphIndex) {
  const store = useEditorStore();
  // The dependency being moved, so checking its new place does not count it twice.
  const moving = useRef<{ from: string; to: string } | null>(null);

  const isValidConnection = useCallback(
    (connection: Connection | Edge) => {
      const verdict = checkConnection(tasks, index, connection.source, connection.target, moving.current ?? undefined);
      if (verdict.ok) return true;
      const current = store.getState().notice;
      if (current?.message !== verdict.message) {
        store.getState().setNotice({ kind: 'refusal', message: verdict.message, taskIds: verdict.cycle });
      }
      return false;
    },
    [tasks, index, store],
  );

  const onConnect = useCallback((c: Connection) => void store.getState().connect(c.source, c.target), [store]);
  const onConnectStart = useCallback(() => store.getState().setNotice(null), [store]);
  const onReconnectStart = useCallback((_: unknown, edge: Edge) => {
    moving.current = { from: edge.source, to: edge.target };
  }, []);
  const onReconnect = useCallback(
    (old: Edge, c: Connection) => void store.getState().moveEdge({ from: old.source, to: old.target }, { from: c.source, to: c.target }),
    [store],
  );
  const onReconnectEnd = useCallback(() => {
    moving.current = null;
  }, []);

  return { isValidConnection, onConnect, onConnectStart, onReconnectStart, onReconnect, onReconnectEnd };
}
