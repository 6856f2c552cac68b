import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchingTaskIds, taskMatches } from './task-search';

function task(fields: Partial<Parameters<typeof taskMatches>[0]> & { task_id: string }) {
  return { description: '', execution_type: 'tool', parameters: {}, arguments: {}, instructions: null, agent_id: null, tool_id: null, function_id: null, ...fields };
}

describe('Task Search', () => {
  const plan = [
    task({ task_id: 'fetch', description: 'Fetch the papers', tool_id: 'papers_search', arguments: { query: { terms: ['Graph Neural Networks'] } } }),
    task({ task_id: 'summarise', description: 'Summarise them', execution_type: 'agent', agent_id: 'writer', instructions: 'Keep it under 200 words' }),
    task({ task_id: 'notify', description: 'Tell the team', execution_type: 'llm', function_id: 'gpt-mini', parameters: { channel: '#Research', retries: 3 } }),
  ];

  it('finds a task by its id, description, target, instructions, argument or parameter, ignoring case', () => {
    expect(matchingTaskIds(plan, 'SUMMARISE')).toEqual(['summarise']);
    expect(matchingTaskIds(plan, 'the papers')).toEqual(['fetch']);
    expect(matchingTaskIds(plan, 'Papers_Search')).toEqual(['fetch']);
    expect(matchingTaskIds(plan, 'writer')).toEqual(['summarise']);
    expect(matchingTaskIds(plan, 'gpt-mini')).toEqual(['notify']);
    expect(matchingTaskIds(plan, '200 words')).toEqual(['summarise']);
    expect(matchingTaskIds(plan, 'neural')).toEqual(['fetch']);
    expect(matchingTaskIds(plan, '#research')).toEqual(['notify']);
  });

  it('lists every match in plan order', () => {
    expect(matchingTaskIds(plan, 'e')).toEqual(['fetch', 'summarise', 'notify']);
  });

  it('does not search numbers, keys, or a target field the task type does not route by', () => {
    expect(matchingTaskIds(plan, '3')).toEqual([]);
    expect(matchingTaskIds(plan, 'channel')).toEqual([]);
    expect(matchingTaskIds([task({ task_id: 'a', execution_type: 'agent', agent_id: 'writer', tool_id: 'stale_tool' })], 'stale')).toEqual([]);
  });

  it('searches every target field of a task whose type it does not know', () => {
    expect(matchingTaskIds([task({ task_id: 'a', execution_type: 'mystery', tool_id: 'legacy_tool' })], 'legacy')).toEqual(['a']);
  });

  it('never matches across the end of one field and the start of the next', () => {
    expect(matchingTaskIds([task({ task_id: 'ab', description: 'cd' })], 'bc')).toEqual([]);
  });

  it('searches nothing for an empty or blank query', () => {
    expect(matchingTaskIds(plan, '')).toBeNull();
    expect(matchingTaskIds(plan, '   ')).toBeNull();
    expect(taskMatches(plan[0]!, ' ')).toBe(false);
  });

  it('lists a repeated task id once', () => {
    expect(matchingTaskIds([task({ task_id: 'x' }), task({ task_id: 'x' })], 'x')).toEqual(['x']);
  });

  it('finds any string hidden at any depth of the arguments, whatever its case', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.string(), tie('value'), { maxKeys: 3 })),
    })).value;
    const needle = fc.stringMatching(/^[a-z][a-z0-9 ]{0,10}$/).filter((s) => s.trim() !== '');
    fc.assert(
      fc.property(fc.array(json, { maxLength: 3 }), needle, fc.boolean(), (noise, text, upper) => {
        const hidden = task({ task_id: 'x', arguments: { a: [...noise, { deep: [`…${upper ? text.toUpperCase() : text}…`] }] } });
        expect(taskMatches(hidden, upper ? text : text.toUpperCase())).toBe(true);
      }),
    );
  });
});
