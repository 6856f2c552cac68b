import { describe, expect, it } from 'vitest';
import { searchTasks, typedButNotPicked } from './task-picker-search';

const tasks = [
  { id: 'fetch-papers', label: 'Fetch the research papers', text: 'Fetch the research papers to summarise, with titles.' },
  { id: 'extract-findings-1', label: 'Extract the key findings, method and evidence o…', text: 'Extract the key findings, method and evidence of paper 1.' },
  { id: 'extract-findings-2', label: 'Extract the key findings, method and evidence o…', text: 'Extract the key findings, method and evidence of paper 2.' },
  { id: 'summarise-2', label: 'Summarise the papers' },
];
const ids = (query: string, limit = 50) => searchTasks(tasks, query, limit).options.map((t) => t.id);

describe('searchTasks', () => {
  it('finds a task by words of its full description that its shortened name lacks', () => {
    expect(ids('paper 2')[0]).toBe('extract-findings-2');
    expect(ids('PAPER 2')).not.toContain('extract-findings-1');
  });

  it('matches every word anywhere in the name, id or description, parts of words included', () => {
    expect(ids('summ 2')).toEqual(['summarise-2']);
    expect(ids('findings   extract')).toEqual(['extract-findings-1', 'extract-findings-2']);
    expect(ids('evid 1')).toEqual(['extract-findings-1']);
  });

  it('lists the tasks holding the words together first, then the rest in plan order', () => {
    expect(ids('papers summarise')).toEqual(['fetch-papers', 'summarise-2']);
    expect(ids('the papers')).toEqual(['summarise-2', 'fetch-papers']);
    expect(ids('2 paper')).toEqual(['extract-findings-2', 'summarise-2']);
  });

  it('counts every match but returns at most the limit, and everything for no query', () => {
    expect(searchTasks(tasks, 'extract', 1)).toMatchObject({ total: 2, options: [{ id: 'extract-findings-1' }] });
    expect(searchTasks(tasks, '  ', 50).total).toBe(4);
    expect(ids('nothing like it')).toEqual([]);
  });
});

describe('typedButNotPicked', () => {
  it('says text was left unpicked only when none of the tasks it finds is picked', () => {
    expect(typedButNotPicked(tasks, 'paper 2', [])).toBe(true);
    expect(typedButNotPicked(tasks, 'paper 2', ['extract-findings-1'])).toBe(true);
    expect(typedButNotPicked(tasks, 'paper 2', ['extract-findings-2'])).toBe(false);
    expect(typedButNotPicked(tasks, 'nothing like it', [])).toBe(true);
    expect(typedButNotPicked(tasks, '  ', [])).toBe(false);
  });
});
