import { describe, expect, it } from 'vitest';
import { withArticle } from './indefinite-article';

describe('withArticle', () => {
  it('names each execution type and target field with the article it is said with', () => {
    expect(['agent', 'tool', 'llm', 'dsl'].map(withArticle)).toEqual(['an agent', 'a tool', 'an llm', 'a dsl']);
    expect(['agent_id', 'tool_id', 'function_id'].map(withArticle)).toEqual(['an agent_id', 'a tool_id', 'a function_id']);
  });

  it('goes by sound, not spelling', () => {
    expect(['user', 'unique', 'one-off', 'hour', 'MCP', 'unknown', 'other', 'http_call'].map(withArticle)).toEqual([
      'a user',
      'a unique',
      'a one-off',
      'an hour',
      'an MCP',
      'an unknown',
      'an other',
      'an http_call',
    ]);
  });
});
