import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distinctTaskLabels, shortTag, splitDistinctLabel, taskLabel } from './task-label';

describe('taskLabel', () => {
  it('uses the first line of the description, shortened, else the id', () => {
    expect(taskLabel({ task_id: 't1', description: 'Fetch paper\nthen more' })).toBe('Fetch paper');
    expect(taskLabel({ task_id: 't1', description: '  ' })).toBe('t1');
    expect(taskLabel({ task_id: 't1', description: 'x'.repeat(60) })).toHaveLength(48);
    expect(taskLabel(undefined, 'gone')).toBe('gone');
  });
});

describe('distinctTaskLabels', () => {
  it('leaves unique labels alone and puts the id beside labels that collide', () => {
    const labels = distinctTaskLabels([
      { task_id: 'a', description: 'Fetch paper' },
      { task_id: 'b', description: 'Fetch paper' },
      { task_id: 'c', description: 'Summarise' },
      { task_id: 'd', description: 'Fetch paper\nsecond line differs' },
    ]);
    expect(Object.fromEntries(labels)).toEqual({
      a: 'Fetch paper (a)',
      b: 'Fetch paper (b)',
      c: 'Summarise',
      d: 'Fetch paper (d)',
    });
  });

  it('treats a task without a description like one labelled with its id', () => {
    const labels = distinctTaskLabels([
      { task_id: 'x', description: '' },
      { task_id: 'y', description: 'x' },
    ]);
    expect(labels.get('x')).toBe('x (x)');
    expect(labels.get('y')).toBe('x (y)');
  });

  it('never lets a label with its id equal another task’s own label', () => {
    const labels = distinctTaskLabels([
      { task_id: 'q', description: 'Fetch (b)' },
      { task_id: 'b', description: 'Fetch' },
      { task_id: 'c', description: 'Fetch' },
    ]);
    expect(labels.get('q')).toBe('Fetch (b)');
    expect(new Set(labels.values()).size).toBe(3);
    expect(labels.get('b')).toMatch(/^Fetch \(b/);
  });

  it('gives every task of any plan a label no other task has', () => {
    const word = fc.constantFrom('Fetch', 'paper', '(a)', 'a', 'b', ' ', '', 'x (a)', 'Fetch (b)');
    const task = fc.record({
      task_id: fc.constantFrom('a', 'b', 'c', 'x', 'a)', '(b', 'Fetch', 'b #2'),
      description: fc.array(word, { maxLength: 3 }).map((w) => w.join(' ')),
    });
    fc.assert(
      fc.property(fc.uniqueArray(task, { selector: (t) => t.task_id, maxLength: 8 }), (tasks) => {
        const labels = distinctTaskLabels(tasks);
        expect(labels.size).toBe(tasks.length);
        expect(new Set(labels.values()).size).toBe(tasks.length);
      }),
      { numRuns: 500 },
    );
  });
});

describe('splitDistinctLabel', () => {
  it('splits off the id part a collision added, and leaves any other label whole', () => {
    expect(splitDistinctLabel('Fetch paper (a)', 'a')).toEqual({ name: 'Fetch paper', tag: '(a)' });
    expect(splitDistinctLabel('Fetch (b #2)', 'b')).toEqual({ name: 'Fetch', tag: '(b #2)' });
    expect(splitDistinctLabel('Summarise', 'c')).toEqual({ name: 'Summarise', tag: null });
    expect(splitDistinctLabel('(x)', 'x')).toEqual({ name: '(x)', tag: null });
  });
});

describe('shortTag', () => {
  it('keeps both ends of a long id, so ids that differ only at the end still differ', () => {
    const a = shortTag('(fast2bfq_080603_ILMN-GA001_0003_s_1_sequence_1)');
    const b = shortTag('(fast2bfq_080603_ILMN-GA001_0003_s_1_sequence_10)');
    expect(a).toHaveLength(28);
    expect(a).toBe('(fast2bfq_080…_1_sequence_1)');
    expect(b).not.toBe(a);
    expect(shortTag('(extract-findings-1)')).toBe('(extract-findings-1)');
  });
});
