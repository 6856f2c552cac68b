import { describe, expect, it } from 'vitest';
import { inlineAccountRefusal } from './inline-account';

describe('inline sign-in account', () => {
  it('lets the same user back in, however the name is typed', () => {
    expect(inlineAccountRefusal('editor', ' Editor ')).toBeNull();
  });

  it('refuses anyone else, naming who may sign in', () => {
    expect(inlineAccountRefusal('editor', 'approver')).toBe('To keep your edits as yours, sign in as editor; or open the sign-in page to switch account.');
  });
});
