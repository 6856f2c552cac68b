import { describe, expect, it } from 'vitest';
import { linkedTask, missingTaskMessage } from './task-link';

const tasks = [{ task_id: 'fetch' }, { task_id: 'summarise' }];

describe('linkedTask', () => {
  it('finds a task the plan has', () => {
    expect(linkedTask(tasks, 'summarise')).toEqual({ found: 'summarise', missing: null });
  });

  it('names a task the plan does not have as missing, matched exactly', () => {
    expect(linkedTask(tasks, 'gone')).toEqual({ found: null, missing: 'gone' });
    expect(linkedTask(tasks, 'Fetch')).toEqual({ found: null, missing: 'Fetch' });
  });

  it('is nothing when the link names no task', () => {
    expect(linkedTask(tasks, null)).toEqual({ found: null, missing: null });
    expect(linkedTask(tasks, '')).toEqual({ found: null, missing: null });
  });
});

describe('missingTaskMessage', () => {
  it('says which task and which revision', () => {
    expect(missingTaskMessage('gone', 3)).toBe('The link names task "gone", which revision 3 of this plan does not have: it may have been renamed or removed since the link was made.');
  });
});
