// Seed 001's "Temporal Reference Resolution" table, resolved against a given today.

import { describe, expect, it } from 'vitest';
import { addDays, findTemporal, mondayOf, resolveTemporal } from './temporal';

const TODAY = '2025-10-12';

describe('resolveTemporal: the seed\'s table (today = 2025-10-12)', () => {
  const rows: Array<[string, string, string]> = [
    ['today', '2025-10-12', '2025-10-12'],
    ['yesterday', '2025-10-11', '2025-10-11'],
    ['last week', '2025-10-05', '2025-10-12'],
    ['this month', '2025-10-01', '2025-10-12'],
    ['last 30 days', '2025-09-12', '2025-10-12'],
  ];
  for (const [phrase, date_from, date_to] of rows) {
    it(`"${phrase}" → ${date_from} to ${date_to}`, () => {
      expect(resolveTemporal(phrase, TODAY)).toEqual({ date_from, date_to });
    });
  }

  it('"this week" → Monday to today (the seed\'s rule; its example date 2025-10-07 is a Tuesday)', () => {
    // 2025-10-12 is a Sunday, so its ISO week began on Monday 2025-10-06.
    expect(resolveTemporal('this week', TODAY)).toEqual({ date_from: '2025-10-06', date_to: '2025-10-12' });
    // Any day of that week gives the same Monday; a Monday gives itself.
    expect(resolveTemporal('this week', '2025-10-11')).toEqual({ date_from: '2025-10-06', date_to: '2025-10-11' });
    expect(resolveTemporal('this week', '2025-10-06')).toEqual({ date_from: '2025-10-06', date_to: '2025-10-06' });
  });
});

describe('resolveTemporal: beyond the table', () => {
  it('last N days, past week, and case', () => {
    expect(resolveTemporal('last 7 days', TODAY)).toEqual({ date_from: '2025-10-05', date_to: TODAY });
    expect(resolveTemporal('past 3 days', TODAY)).toEqual({ date_from: '2025-10-09', date_to: TODAY });
    expect(resolveTemporal('Last Week', TODAY)).toEqual({ date_from: '2025-10-05', date_to: TODAY });
  });

  it('month, year and leap-day boundaries', () => {
    expect(resolveTemporal('yesterday', '2025-01-01')).toEqual({ date_from: '2024-12-31', date_to: '2024-12-31' });
    expect(resolveTemporal('last week', '2024-03-03')).toEqual({ date_from: '2024-02-25', date_to: '2024-03-03' });
    expect(resolveTemporal('yesterday', '2024-03-01')).toEqual({ date_from: '2024-02-29', date_to: '2024-02-29' });
    expect(resolveTemporal('this month', '2024-02-29')).toEqual({ date_from: '2024-02-01', date_to: '2024-02-29' });
    expect(resolveTemporal('this week', '2026-01-01')).toEqual({ date_from: '2025-12-29', date_to: '2026-01-01' });
  });

  it('explicit ranges', () => {
    expect(resolveTemporal('from 2025-10-01 to 2025-10-12', TODAY)).toEqual({ date_from: '2025-10-01', date_to: '2025-10-12' });
    expect(resolveTemporal('October 1st to October 10th', TODAY)).toEqual({ date_from: '2025-10-01', date_to: '2025-10-10' });
    expect(resolveTemporal('2025-09-30', TODAY)).toEqual({ date_from: '2025-09-30', date_to: '2025-09-30' });
    expect(() => resolveTemporal('from 2025-10-12 to 2025-10-01', TODAY)).toThrow('ends (2025-10-01) before it starts (2025-10-12)');
  });

  it('unknown phrases and bad dates throw', () => {
    expect(() => resolveTemporal('next week', TODAY)).toThrow('Not a temporal reference the rule-based planner knows: "next week"');
    expect(() => resolveTemporal('today', '2025-13-01')).toThrow('today is not a calendar date');
  });
});

describe('findTemporal', () => {
  it('finds each phrase once, possessive included, with its position', () => {
    const text = "Analyse today's contaminants and last 30 days of shipments";
    expect(findTemporal(text, TODAY).map(({ phrase, start, date_from, date_to }) => ({ phrase, start, date_from, date_to }))).toEqual([
      { phrase: "today's", start: 8, date_from: TODAY, date_to: TODAY },
      { phrase: 'last 30 days', start: 33, date_from: '2025-09-12', date_to: TODAY },
    ]);
  });

  it('a date inside a range is not a second reference', () => {
    expect(findTemporal('shipments from 2025-10-01 to 2025-10-05', TODAY)).toHaveLength(1);
  });
});

describe('date helpers', () => {
  it('addDays and mondayOf', () => {
    expect(addDays('2025-10-12', -30)).toBe('2025-09-12');
    expect(mondayOf('2025-10-12')).toBe('2025-10-06');
    expect(mondayOf('2025-10-13')).toBe('2025-10-13');
    expect(mondayOf('1970-01-01')).toBe('1969-12-29');
  });
});
