import { describe, expect, it } from 'vitest';
import { buildGraphIndex } from '@/lib/graph';
import { TaskData } from '@/lib/plan';
import { checkConnection } from './connection-check';

const { planned_tasks: tasks } = TaskData.parse({
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
    { task_id: 'review', description: 'Review', execution_type: 'agent', dependencies: ['summarise'] },
  ],
});
const index = buildGraphIndex(tasks);

describe('checkConnection', () => {
  it('allows a new dependency that keeps the plan acyclic', () => {
    expect(checkConnection(tasks, index, 'fetch', 'review')).toEqual({ ok: true });
  });

  it('refuses a cycle and names it by task descriptions', () => {
    expect(checkConnection(tasks, index, 'summarise', 'fetch')).toEqual({
      ok: false,
      message: 'Would create a cycle: Summarise → Fetch → Summarise',
      cycle: ['summarise', 'fetch', 'summarise'],
    });
    expect(checkConnection(tasks, index, 'review', 'fetch')).toMatchObject({
      message: 'Would create a cycle: Review → Fetch → Summarise → Review',
    });
  });

  it('refuses self-loops and duplicates', () => {
    expect(checkConnection(tasks, index, 'fetch', 'fetch')).toMatchObject({ ok: false, message: '“Fetch” cannot depend on itself' });
    expect(checkConnection(tasks, index, 'fetch', 'summarise')).toMatchObject({ ok: false, message: '“Summarise” already depends on “Fetch”' });
  });

  it('judges a moved edge without the edge it replaces', () => {
    // Turning fetch→summarise around is a cycle only if the edge being moved still counted.
    expect(checkConnection(tasks, index, 'summarise', 'fetch', { from: 'fetch', to: 'summarise' })).toEqual({ ok: true });
    expect(checkConnection(tasks, index, 'review', 'summarise', { from: 'fetch', to: 'summarise' })).toMatchObject({ ok: false });
    expect(checkConnection(tasks, index, 'fetch', 'review', { from: 'summarise', to: 'review' })).toEqual({ ok: true });
  });
});
