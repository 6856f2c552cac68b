import { describe, expect, it } from 'vitest';
import { updateTask } from '@/lib/plan';
import { mergePlans } from '@/lib/plan/merge';
import type { ApprovalGuard } from './approval-guard';
import { openEditor, planDocument } from './test-editor';

const APPROVED: ApprovalGuard = { status: 'approved', revision: 3, approvers: ['ann'] };
const TASKS = { fetch: [], review: ['fetch'] };
const open = (approval?: ApprovalGuard) => openEditor({ tasks: TASKS, revision: 3, approval });

describe('markSaved', () => {
  it('leaves nothing unsaved on the new revision, which it remembers saving itself', () => {
    const editor = open().click('fetch');
    editor.fill('description', 'Fetch all');
    editor.save({ revision: 4 });
    expect(editor.state).toMatchObject({ baseRevision: 4, savedHere: 4 });
    expect(editor.dirty).toBe(false);
    // Saving is not an edit: the edit before it can still be undone, and is then unsaved.
    editor.press('Ctrl+Z');
    expect(editor.dirty).toBe(true);
  });

  it('keeps edits made while the save was on its way unsaved', () => {
    const editor = open().click('fetch');
    editor.fill('description', 'Fetch all');
    editor.clickSave();
    editor.fill('description', 'Fetch everything');
    editor.serverAnswers({ revision: 4 });
    expect(editor.state.savedDoc.plan.planned_tasks[0]?.description).toBe('Fetch all');
    expect(editor.dirty).toBe(true);
  });

  it('keeps what stands on a layout-only save and lets go of it on a content save', () => {
    const editor = open(APPROVED).drag('fetch', { x: 0, y: 200 });
    editor.state.markSaved(4, editor.doc, { layoutOnly: true });
    expect(editor.state.approval).toEqual(APPROVED);
    editor.click('fetch').fill('description', 'Fetch all');
    editor.state.markSaved(5, editor.doc, { layoutOnly: false });
    expect(editor.state.approval).toBeNull();
  });
});

describe('setApproval', () => {
  it('asks before a content save voids what stands, and not for a layout-only save', () => {
    const editor = open();
    editor.state.setApproval(APPROVED);
    editor.drag('fetch', { x: 0, y: 200 });
    expect(editor.clickSave()).toBe('sent');
    editor.serverAnswers({ approval: APPROVED });
    expect(editor.state.approval).toEqual(APPROVED);

    editor.click('fetch').fill('description', 'Fetch all');
    expect(editor.clickSave()).toBe('confirm');
    editor.confirmSave();
    editor.serverAnswers();
    expect(editor.state.approval).toBeNull();
    editor.fill('description', 'Fetch it all');
    expect(editor.clickSave()).toBe('sent');
  });

  it('asks nothing when content changed back to what was approved', () => {
    const editor = open(APPROVED).click('fetch');
    editor.fill('description', 'Fetch all');
    editor.fill('description', 'fetch');
    expect(editor.dirty).toBe(true);
    expect(editor.clickSave()).toBe('sent');
  });
});

describe('applySavedRevision', () => {
  it('takes on a replan applied elsewhere, already saved, and lets go of the approval', () => {
    const editor = open(APPROVED).click('fetch');
    const replanned = planDocument({ tasks: { fetch: [], check: ['fetch'] } });
    editor.state.applySavedRevision(replanned, 5);
    expect(editor.taskIds).toEqual(['fetch', 'check']);
    expect(editor.state).toMatchObject({ baseRevision: 5, approval: null, selectedTaskIds: [] });
    expect(editor.dirty).toBe(false);
    expect(editor.undoSteps).toBe(1);
    // Undo goes back to the plan before the replan, which is then an unsaved change.
    editor.press('Ctrl+Z');
    expect(editor.taskIds).toEqual(['fetch', 'review']);
    expect(editor.dirty).toBe(true);
  });
});

describe('loadRevision', () => {
  it('opens another revision as saved, with a history of its own', () => {
    const editor = open().click('fetch');
    editor.fill('description', 'Fetch all');
    editor.save({ revision: 4 });
    const theirs = planDocument({ tasks: { fetch: [], review: ['fetch'], publish: ['review'] }, groups: { a: ['fetch', 'review'], b: ['publish'] } });
    editor.state.loadRevision({ ...theirs, view: { ...theirs.view, collapsed: ['b'] } }, 5);
    expect(editor.taskIds).toEqual(['fetch', 'review', 'publish']);
    expect(editor.state).toMatchObject({ baseRevision: 5, savedHere: 4, collapsed: ['b'] });
    expect(editor).toMatchObject({ dirty: false, undoSteps: 0 });
  });
});

describe('rebase', () => {
  it('keeps my edits unsaved on the new base, as one undo step back to that revision as saved', () => {
    const editor = open().click('fetch');
    editor.fill('description', 'Fetch mine');
    editor.fill('instructions', 'Carefully');
    const theirs = updateTask(editor.state.savedDoc, 'review', { description: 'Review theirs' });
    const { doc, conflicts } = mergePlans(editor.state.savedDoc, editor.doc, theirs);
    expect(conflicts).toEqual([]);

    editor.state.rebase(theirs, 6, doc);
    expect(editor.state.baseRevision).toBe(6);
    expect(editor.state.savedDoc).toBe(theirs);
    expect(editor.dirty).toBe(true);
    expect(editor.doc.plan.planned_tasks.map((t) => t.description)).toEqual(['Fetch mine', 'Review theirs']);
    expect(editor.notice?.message).toBe('Your changes are now on top of revision 6; review them and save');

    expect(editor.undoSteps).toBe(1);
    editor.press('Ctrl+Z');
    // Undo never goes back to the draft on the old base, which would silently drop their save.
    expect(editor.doc).toBe(theirs);
  });

  it('lets go of selected tasks the other save deleted', () => {
    const editor = open().click('fetch', 'review');
    const theirs = planDocument({ tasks: { fetch: [] } });
    editor.state.rebase(theirs, 6, theirs);
    expect(editor.selected).toEqual(['fetch']);
  });
});
