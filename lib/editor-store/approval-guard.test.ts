import { describe, expect, it } from 'vitest';
import { guardMessage } from './approval-guard';

describe('guardMessage', () => {
  it('says who approved, or that the plan is in review', () => {
    expect(guardMessage({ status: 'approved', revision: 3, approvers: ['ann', 'bo', 'cy'] })).toBe('Approved by ann, bo and cy at r3; saving will void the approval');
    expect(guardMessage({ status: 'approved', revision: 3, approvers: [] })).toBe('Approved at r3; saving will void the approval');
    expect(guardMessage({ status: 'in_review', revision: 2 })).toBe('In review at r2; saving will withdraw it from review');
  });
});
