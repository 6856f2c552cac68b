import { describe, expect, it } from 'vitest';
import { openEditor } from './test-editor';

// fetch → summarise → publish, and audit on its own, in three subgraphs.
const GROUPS = { 'sg-1': ['fetch', 'summarise'], 'sg-2': ['publish'], 'sg-3': ['audit'] };
const open = () => openEditor({ tasks: { fetch: [], summarise: ['fetch'], publish: ['summarise'], audit: [] }, groups: GROUPS });

describe('applyGrouping', () => {
  it('replaces the grouping with a message, expanded, as one undo step', () => {
    const editor = open();
    editor.state.setAllCollapsed(true);
    expect(editor.state.applyGrouping([{ subgraph_id: 'all', task_ids: ['fetch', 'summarise', 'publish', 'audit'] }], 'One subgraph')).toBe(true);
    // Tasks in a subgraph are kept in dependency order, sources first.
    expect(editor.groups).toEqual({ all: ['fetch', 'audit', 'summarise', 'publish'] });
    expect(editor.notice).toEqual({ kind: 'info', message: 'One subgraph', taskIds: [] });
    expect(editor.state.collapsed).toEqual([]);
    expect(editor.undoSteps).toBe(1);
    editor.press('Ctrl+Z');
    expect(editor.groups).toEqual(GROUPS);
  });

  it('refuses a grouping whose subgraphs would wait on each other', () => {
    const editor = open();
    const ok = editor.state.applyGrouping(
      [
        { subgraph_id: 'a', task_ids: ['fetch', 'publish'] },
        { subgraph_id: 'b', task_ids: ['summarise', 'audit'] },
      ],
      'Regrouped',
    );
    expect(ok).toBe(false);
    expect(editor.notice).toMatchObject({ kind: 'refusal', message: expect.stringMatching(/Subgraphs wait on each other/) });
    expect(editor.groups).toEqual(GROUPS);
    expect(editor.undoSteps).toBe(0);
  });
});

describe('clearSubgraphs', () => {
  it('ungroups the plan, as one undo step', () => {
    const editor = open();
    editor.state.toggleCollapsed('sg-1');
    editor.state.clearSubgraphs();
    expect(editor.groups).toEqual({});
    expect(editor.state.collapsed).toEqual([]);
    expect(editor.undoSteps).toBe(1);
    editor.press('Ctrl+Z');
    expect(editor.groups).toEqual(GROUPS);
  });
});

describe('moveToSubgraph', () => {
  it('moves a task dropped in a subgraph there, with its position, as one step', () => {
    const editor = open();
    expect(editor.dropInto('sg-2', 'audit', { x: 500, y: 40 })).toBe(true);
    // Independent tasks keep the plan's dependency order: audit is a source, so it leads.
    expect(editor.groups).toEqual({ 'sg-1': ['fetch', 'summarise'], 'sg-2': ['audit', 'publish'] });
    expect(editor.position('audit')).toEqual({ x: 500, y: 40 });
    expect(editor.undoSteps).toBe(1);
    editor.press('Ctrl+Z');
    expect(editor.groups).toEqual(GROUPS);
    expect(editor.position('audit')).toEqual({ x: 900, y: 0 });
  });

  it('refuses a move that breaks an invariant with the reason, and changes nothing', () => {
    const editor = open();
    const before = editor.doc;
    expect(editor.dropInto('sg-2', 'fetch', { x: 600, y: 0 })).toBe(false);
    expect(editor.notice).toMatchObject({ kind: 'refusal', message: expect.stringMatching(/Subgraphs wait on each other/) });
    expect(editor.doc).toBe(before);
    expect(editor.undoSteps).toBe(0);
  });
});

describe('splitSelection', () => {
  it('moves the selected tasks into a new subgraph and says which, as one step', () => {
    const editor = open().click('summarise');
    expect(editor.state.splitSelection()).toBe(true);
    expect(editor.groups).toEqual({ 'sg-1': ['fetch'], 'sg-4': ['summarise'], 'sg-2': ['publish'], 'sg-3': ['audit'] });
    expect(editor.notice?.message).toBe('Moved the selected tasks into a new subgraph, sg-4');
    expect(editor.undoSteps).toBe(1);
  });

  it('refuses to split off a whole subgraph', () => {
    const editor = open().click('publish');
    expect(editor.state.splitSelection()).toBe(false);
    expect(editor.notice).toMatchObject({ kind: 'refusal', message: expect.stringMatching(/all the tasks of subgraph "sg-2"/) });
    expect(editor.undoSteps).toBe(0);
  });
});

describe('mergeSelection', () => {
  it('merges the subgraphs of the selected tasks into the first and says so, as one step', () => {
    const editor = open().click('summarise', 'publish');
    expect(editor.state.mergeSelection()).toBe(true);
    expect(editor.groups).toEqual({ 'sg-1': ['fetch', 'summarise', 'publish'], 'sg-3': ['audit'] });
    expect(editor.notice?.message).toBe('Merged sg-1, sg-2 into sg-1');
    expect(editor.undoSteps).toBe(1);
  });

  it('refuses with tasks of one subgraph selected', () => {
    const editor = open().click('fetch', 'summarise');
    expect(editor.state.mergeSelection()).toBe(false);
    expect(editor.notice).toMatchObject({ kind: 'refusal', message: 'select tasks in at least two subgraphs to merge' });
  });
});

describe('the grouping follows task and dependency edits', () => {
  it('gives a new task a subgraph of its own and derives what subgraphs wait on', () => {
    const editor = open();
    editor.doubleClickPane({ x: 0, y: 300 });
    expect(editor.groups).toMatchObject({ 'sg-4': ['task-5'] });
    expect(editor.connect('publish', 'task-5')).toBe(true);
    expect(editor.doc.subgraphs.find((sg) => sg.subgraph_id === 'sg-4')?.depends_on).toEqual(['sg-2']);
    editor.click('publish').press('Delete');
    expect(editor.groups).toEqual({ 'sg-1': ['fetch', 'summarise'], 'sg-3': ['audit'], 'sg-4': ['task-5'] });
  });

  it('refuses a dependency that would make subgraphs wait on each other, on the canvas and in the inspector', () => {
    const editor = openEditor({ tasks: { fetch: [], summarise: ['fetch'], publish: ['summarise'], audit: [] }, groups: { a: ['fetch', 'audit'], b: ['summarise', 'publish'] } });
    // publish (in b) → audit (in a) while a already feeds b.
    const before = editor.doc;
    expect(editor.connect('publish', 'audit')).toBe(false);
    expect(editor.notice).toMatchObject({ kind: 'refusal', message: expect.stringMatching(/^Subgraphs wait on each other/) });
    expect(editor.state.updateTask('audit', { dependencies: ['publish'] })).toMatch(/^Subgraphs wait on each other/);
    expect(editor.doc).toBe(before);
  });
});
