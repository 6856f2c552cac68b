'use client';

import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { EditorState, EditorStore } from '@/lib/editor-store/editor-store';

export const EditorStoreContext = createContext<EditorStore | null>(null);

export function useEditorStore(): EditorStore {
  const store = useContext(EditorStoreContext);
  if (!store) throw new Error('useEditorStore: no editor store above this component');
  return store;
}

/** Subscribes to one slice of the editor; the component re-renders only when it changes. */
export function useEditor<T>(selector: (state: EditorState) => T): T {
  return useStore(useEditorStore(), selector);
}

export function useHistory() {
  const store = useEditorStore();
  const canUndo = useStore(store.temporal, (s) => s.pastStates.length > 0);
  const canRedo = useStore(store.temporal, (s) => s.futureStates.length > 0);
  return { canUndo, canRedo, undo: () => store.temporal.getState().undo(), redo: () => store.temporal.getState().redo() };
}
