import { describe, expect, it } from 'vitest';
import { createCanvasFocusStore } from './canvas-focus';

describe('Canvas Focus', () => {
  it('steps through the matches with Enter and Shift+Enter, wrapping at either end', () => {
    const focus = createCanvasFocusStore();
    focus.getState().setMatches(['a', 'b', 'c']);
    const { step } = focus.getState();
    expect([step(1), step(1), step(1), step(1)]).toEqual(['a', 'b', 'c', 'a']);
    expect([step(-1), step(-1)]).toEqual(['c', 'b']);
  });

  it('starts from the last match when the first step is backwards', () => {
    const focus = createCanvasFocusStore();
    focus.getState().setMatches(['a', 'b', 'c']);
    expect(focus.getState().step(-1)).toBe('c');
  });

  it('stays on the current match when the list changes around it, and starts over when it is gone', () => {
    const focus = createCanvasFocusStore();
    focus.getState().setMatches(['a', 'b', 'c']);
    focus.getState().step(1);
    focus.getState().step(1);
    focus.getState().setMatches(['x', 'b']);
    expect(focus.getState().step(1)).toBe('x');
    focus.getState().setMatches(['y', 'z']);
    expect(focus.getState().step(1)).toBe('y');
  });

  it('moves nowhere without matches', () => {
    const focus = createCanvasFocusStore();
    expect(focus.getState().step(1)).toBeNull();
    focus.getState().setMatches([]);
    expect(focus.getState().step(1)).toBeNull();
  });

  it('forgets the search and the upstream view on clear', () => {
    const focus = createCanvasFocusStore();
    focus.getState().setQuery('fetch');
    focus.getState().setMatches(['fetch']);
    focus.getState().setRelation('upstream');
    focus.getState().setRelated(new Set(['fetch']));
    focus.getState().clear();
    expect(focus.getState()).toMatchObject({ query: '', matches: null, current: -1, relation: null, related: null });
  });

  it('ends the search when moving to a task it did not find, and keeps it when stepping through matches', () => {
    const focus = createCanvasFocusStore();
    focus.getState().setQuery('fetch');
    focus.getState().setMatches(['fetch', 'fetch-2']);
    focus.getState().leaveSearchFor(['fetch-2']);
    expect(focus.getState()).toMatchObject({ query: 'fetch', matches: ['fetch', 'fetch-2'] });
    focus.getState().leaveSearchFor(['summarise']);
    expect(focus.getState()).toMatchObject({ query: '', matches: null, current: -1 });
  });
});
