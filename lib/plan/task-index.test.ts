import { describe, expect, it } from 'vitest';
import type { PlannerTask } from './schema';
import { tasksById } from './task-index';

const task = (id: string, description: string) => ({ task_id: id, description, dependencies: [] }) as unknown as PlannerTask;

describe('the index of a task list', () => {
  it('finds each task by its id', () => {
    const tasks = [task('a', 'Fetch'), task('b', 'Review')];
    expect(tasksById(tasks).get('b')).toBe(tasks[1]);
    expect(tasksById(tasks).has('c')).toBe(false);
  });

  it('keeps the first of tasks sharing an id, the one the canvas draws and the inspector shows', () => {
    const tasks = [task('a', 'First'), task('a', 'Second')];
    expect(tasksById(tasks).get('a')?.description).toBe('First');
  });

  it('is built once per list, and anew for the list an edit makes', () => {
    const tasks = [task('a', 'Fetch')];
    expect(tasksById(tasks)).toBe(tasksById(tasks));
    const edited = [...tasks, task('b', 'Review')];
    expect(tasksById(edited).has('b')).toBe(true);
    expect(tasksById(tasks).has('b')).toBe(false);
  });
});
