import { describe, expect, it } from 'vitest';
import { mentionedNames } from './mentions';
import { tasksNamedIn } from './tasks-named';

describe('tasksNamedIn', () => {
  it('finds task ids as whole words, through punctuation and code quotes, in order', () => {
    expect(tasksNamedIn('Fix `summarise`, then fetch.', ['fetch', 'summarise', 'store'])).toEqual(['summarise', 'fetch']);
    expect(tasksNamedIn('(step_2) and t-1: too slow', ['step_2', 't-1', 't'])).toEqual(['step_2', 't-1']);
  });

  it('does not match an id inside a longer word', () => {
    expect(tasksNamedIn('prefetching and fetcher', ['fetch'])).toEqual([]);
  });
});

describe('mentionedNames', () => {
  it('reads @usernames that start a word, lower-cased, without a closing full stop', () => {
    expect(mentionedNames('@Alice please ask @bob.smith. Not mail@example.com or @x')).toEqual(['alice', 'bob.smith']);
  });

  it('names at most 20 distinct users, so one comment fills at most 20 inboxes by mention', () => {
    const body = Array.from({ length: 30 }, (_, i) => `@user${i} @user${i}`).join(' ');
    const names = mentionedNames(body);
    expect(names).toHaveLength(20);
    expect(names[19]).toBe('user19');
  });
});
