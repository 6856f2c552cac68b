import { describe, expect, it } from 'vitest';
import { edgeId } from '@/lib/flow/plan-to-flow';
import { openEditor } from './test-editor';

// fetch → summarise → publish, and audit on its own, in three subgraphs.
const open = () =>
  openEditor({
    tasks: { fetch: [], summarise: ['fetch'], publish: ['summarise'], audit: [] },
    groups: { 'sg-1': ['fetch', 'summarise'], 'sg-2': ['publish'], 'sg-3': ['audit'] },
  });

describe('select', () => {
  it('selects the clicked tasks, adds with Shift, and makes no edit', () => {
    const editor = open().click('fetch');
    expect(editor.selected).toEqual(['fetch']);
    editor.shiftClick('audit');
    expect(editor.selected).toEqual(['fetch', 'audit']);
    editor.shiftClick('fetch');
    expect(editor.selected).toEqual(['audit']);
    expect(editor).toMatchObject({ dirty: false, undoSteps: 0 });
  });

  it('takes the place of a selected edge', () => {
    const editor = open().clickEdge('fetch', 'summarise').click('publish');
    expect(editor.selected).toEqual(['publish']);
    expect(editor.state.selectedEdgeId).toBeNull();
  });
});

describe('selectEdge', () => {
  it('selects an edge in place of the selected tasks', () => {
    const editor = open().click('fetch', 'summarise').clickEdge('summarise', 'publish');
    expect(editor.state.selectedEdgeId).toBe(edgeId('summarise', 'publish'));
    expect(editor.selected).toEqual([]);
  });

  it('lets go of the edge, and of everything else, on a click on the pane', () => {
    const editor = open().clickEdge('fetch', 'summarise').clickPane();
    expect(editor.state.selectedEdgeId).toBeNull();
    expect(editor.selected).toEqual([]);
    expect(editor.undoSteps).toBe(0);
  });
});

describe('toggleCollapsed', () => {
  it('collapses a subgraph, letting go of its selected tasks, and expands it again, without an edit', () => {
    const editor = open().click('publish', 'audit');
    editor.state.toggleCollapsed('sg-2');
    expect(editor.state.collapsed).toEqual(['sg-2']);
    expect(editor.selected).toEqual(['audit']);
    editor.state.toggleCollapsed('sg-2');
    expect(editor.state.collapsed).toEqual([]);
    expect(editor).toMatchObject({ dirty: false, undoSteps: 0 });
  });

  it('forgets a collapsed subgraph that is gone, undo included, so one made again later starts expanded', () => {
    const editor = open().click('summarise');
    editor.state.splitSelection();
    editor.state.toggleCollapsed('sg-4');
    editor.press('Ctrl+Z');
    expect(editor.groups).not.toHaveProperty('sg-4');
    expect(editor.state.collapsed).toEqual([]);
    editor.press('Ctrl+Shift+Z');
    expect(editor.groups).toHaveProperty('sg-4');
    expect(editor.state.collapsed).toEqual([]);
  });
});

describe('setAllCollapsed', () => {
  it('collapses every subgraph and expands them all, without an edit', () => {
    const editor = open().click('fetch');
    editor.state.setAllCollapsed(true);
    expect(editor.state.collapsed).toEqual(['sg-1', 'sg-2', 'sg-3']);
    expect(editor.selected).toEqual([]);
    editor.state.setAllCollapsed(false);
    expect(editor.state.collapsed).toEqual([]);
    expect(editor).toMatchObject({ dirty: false, undoSteps: 0 });
  });
});

describe('expandToShow', () => {
  it('expands only the subgraphs holding the tasks to show', () => {
    const editor = open();
    editor.state.setAllCollapsed(true);
    editor.state.expandToShow(['summarise']);
    expect(editor.state.collapsed).toEqual(['sg-2', 'sg-3']);
    editor.state.expandToShow(['summarise']);
    expect(editor.state.collapsed).toEqual(['sg-2', 'sg-3']);
  });
});
