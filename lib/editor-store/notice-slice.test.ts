import { describe, expect, it } from 'vitest';
import { jsonDraftKey } from './editor-store';
import { openEditor } from './test-editor';

const open = () => openEditor({ tasks: { fetch: [], summarise: ['fetch'] } });

describe('setNotice', () => {
  it('shows a notice until Escape, without an edit', () => {
    const editor = open().click('fetch');
    editor.state.setNotice({ kind: 'error', message: 'Automatic layout failed: timeout', taskIds: [] });
    expect(editor.notice?.message).toBe('Automatic layout failed: timeout');
    editor.press('Escape');
    expect(editor.notice).toBeNull();
    expect(editor.selected).toEqual([]);
    expect(editor.undoSteps).toBe(0);
  });

  it('clears a refusal when the next connection starts', () => {
    const editor = open();
    editor.connect('summarise', 'fetch');
    expect(editor.notice?.kind).toBe('refusal');
    editor.state.addTask({ task_id: 'review' });
    editor.connect('summarise', 'review');
    expect(editor.notice).toBeNull();
  });
});

describe('setJsonDraft', () => {
  it('keeps invalid JSON with its error while another task is selected, without an undo step', () => {
    const editor = open().click('fetch');
    expect(editor.fillJson('parameters', '{ "limit": ')).toMatch(/^Not valid JSON/);
    editor.click('summarise');
    expect(editor.state.jsonDrafts[jsonDraftKey('fetch', 'parameters')]).toEqual({ text: '{ "limit": ', error: expect.stringMatching(/^Not valid JSON/) });
    expect(editor).toMatchObject({ dirty: false, undoSteps: 0 });
  });

  it('forgets the draft once valid JSON is applied, as one undo step', () => {
    const editor = open().click('fetch');
    editor.fillJson('parameters', '{ "limit": ');
    expect(editor.fillJson('parameters', '{ "limit": 5 }')).toBeNull();
    expect(editor.task('fetch')?.parameters).toEqual({ limit: 5 });
    expect(editor.state.jsonDrafts).toEqual({});
    expect(editor.undoSteps).toBe(1);
  });

  it('keeps one draft per task and field', () => {
    const editor = open();
    editor.click('fetch').fillJson('parameters', '[');
    editor.click('summarise').fillJson('arguments', '{');
    editor.click('fetch').fillJson('arguments', '}');
    expect(Object.keys(editor.state.jsonDrafts)).toHaveLength(3);
    editor.state.setJsonDraft('fetch', 'parameters', null);
    expect(Object.values(editor.state.jsonDrafts).map((d) => d.text)).toEqual(['{', '}']);
  });
});
