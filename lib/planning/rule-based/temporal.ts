/**
 * Temporal references (seed 001, "Temporal Reference Resolution") resolved against a
 * given `today`, never the clock, so a plan made from the same query and date is
 * always the same plan.
 *
 * | phrase         | date_from              | date_to |
 * |----------------|------------------------|---------|
 * | today          | today                  | today   |
 * | yesterday      | today − 1              | today − 1 |
 * | last week      | today − 7              | today   |
 * | this week      | Monday of today's week | today   |
 * | this month     | first of today's month | today   |
 * | last N days    | today − N              | today   |
 *
 * Beyond the seed's table: "past week", "past N days", an explicit ISO range
 * ("from 2025-10-01 to 2025-10-12"), a month-name range in today's year
 * ("October 1st to October 10th", the seed's parameter-extraction example) and a
 * single ISO date ("on 2025-10-01").
 *
 * Note on "this week": the seed's rule is "Monday to today", but its worked example
 * (today = 2025-10-12, a Sunday) gives 2025-10-07, which is a Tuesday. We follow the
 * rule: ISO weeks start on Monday, so that example resolves to 2025-10-06.
 */

export interface DateRange {
  date_from: string;
  date_to: string;
}

export interface TemporalMatch extends DateRange {
  /** The words as written in the text ("today's", "last 30 days"). */
  phrase: string;
  /** Character offsets of the phrase in the text searched. */
  start: number;
  end: number;
  /** How the range was worked out, for the planner's notes. */
  rule: string;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Days since 1970-01-01 for a valid YYYY-MM-DD; throws on anything else (2025-02-30 included). */
function dayNumber(iso: string, what: string): number {
  const m = ISO_DATE.exec(iso);
  if (!m) throw new Error(`${what} must be a date written YYYY-MM-DD, got "${iso}"`);
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) {
    throw new Error(`${what} is not a calendar date: "${iso}"`);
  }
  return ms / DAY_MS;
}

function isoOf(days: number): string {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

/** Checks `today` and returns it unchanged; every resolver calls this first. */
export function assertIsoDate(value: string, what = 'today'): string {
  dayNumber(value, what);
  return value;
}

/** `iso` moved by `days` (negative goes back). */
export function addDays(iso: string, days: number): string {
  return isoOf(dayNumber(iso, 'date') + days);
}

/** Monday of the ISO week `iso` falls in. */
export function mondayOf(iso: string): string {
  const days = dayNumber(iso, 'date');
  // 1970-01-01 was a Thursday: (days + 3) mod 7 is 0 on Mondays.
  const sinceMonday = (((days + 3) % 7) + 7) % 7;
  return isoOf(days - sinceMonday);
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = `(${MONTHS.join('|')}|${MONTHS.map((m) => m.slice(0, 3)).join('|')})\\.?`;
const ORDINAL = '(\\d{1,2})(?:st|nd|rd|th)?';

function monthIndex(name: string): number {
  return MONTHS.findIndex((m) => m.startsWith(name.toLowerCase().replace('.', '').slice(0, 3)));
}

function monthDay(year: string, monthName: string, day: string, phrase: string): string {
  const month = String(monthIndex(monthName) + 1).padStart(2, '0');
  const iso = `${year}-${month}-${day.padStart(2, '0')}`;
  return assertIsoDate(iso, `"${phrase}"`);
}

function ordered(range: DateRange, phrase: string): DateRange {
  if (range.date_from > range.date_to) {
    throw new Error(`"${phrase}" ends (${range.date_to}) before it starts (${range.date_from})`);
  }
  return range;
}

interface Pattern {
  regex: RegExp;
  resolve(match: RegExpExecArray, today: string): DateRange & { rule: string };
}

// Longest and most specific first; a later pattern never matches inside an earlier match.
const PATTERNS: Pattern[] = [
  {
    regex: /\b(?:from\s+|between\s+)?(\d{4}-\d{2}-\d{2})\s+(?:to|and|until|through|till)\s+(\d{4}-\d{2}-\d{2})\b/gi,
    resolve: (m) => ({
      ...ordered({ date_from: assertIsoDate(m[1], `"${m[1]}"`), date_to: assertIsoDate(m[2], `"${m[2]}"`) }, m[0]),
      rule: 'explicit dates',
    }),
  },
  {
    regex: new RegExp(`\\b(?:from\\s+|between\\s+)?${MONTH}\\s+${ORDINAL}\\s+(?:to|and|until|through|till)\\s+${MONTH}\\s+${ORDINAL}\\b`, 'gi'),
    resolve: (m, today) => ({
      ...ordered({ date_from: monthDay(today.slice(0, 4), m[1], m[2], m[0]), date_to: monthDay(today.slice(0, 4), m[3], m[4], m[0]) }, m[0]),
      rule: `month and day, in today's year (${today.slice(0, 4)})`,
    }),
  },
  {
    regex: /\b(?:last|past)\s+(\d{1,4})\s+days?\b/gi,
    resolve: (m, today) => ({ date_from: addDays(today, -Number(m[1])), date_to: today, rule: `${m[1]} days before today to today` }),
  },
  {
    regex: /\b(?:last|past)\s+week\b/gi,
    resolve: (_m, today) => ({ date_from: addDays(today, -7), date_to: today, rule: '7 days before today to today' }),
  },
  {
    regex: /\bthis\s+week\b/gi,
    resolve: (_m, today) => ({ date_from: mondayOf(today), date_to: today, rule: "Monday of this week to today" }),
  },
  {
    regex: /\bthis\s+month\b/gi,
    resolve: (_m, today) => ({ date_from: `${today.slice(0, 8)}01`, date_to: today, rule: 'first of this month to today' }),
  },
  {
    regex: /\byesterday\b/gi,
    resolve: (_m, today) => ({ date_from: addDays(today, -1), date_to: addDays(today, -1), rule: 'the day before today' }),
  },
  {
    regex: /\btoday\b/gi,
    resolve: (_m, today) => ({ date_from: today, date_to: today, rule: 'today' }),
  },
  {
    regex: /\b(?:on\s+)?(\d{4}-\d{2}-\d{2})\b/gi,
    resolve: (m) => ({ date_from: assertIsoDate(m[1], `"${m[1]}"`), date_to: m[1], rule: 'explicit date' }),
  },
];

/** Every temporal reference in `text`, in order of appearance, resolved against `today`. */
export function findTemporal(text: string, today: string): TemporalMatch[] {
  assertIsoDate(today);
  const found: TemporalMatch[] = [];
  const taken: Array<[number, number]> = [];
  for (const pattern of PATTERNS) {
    for (const m of text.matchAll(pattern.regex)) {
      const start = m.index;
      const end = start + m[0].length;
      if (taken.some(([s, e]) => start < e && end > s)) continue;
      taken.push([start, end]);
      const { rule, ...range } = pattern.resolve(m as RegExpExecArray, today);
      // "today's": the possessive is part of what the operator wrote.
      const phraseEnd = /^['’]s\b/.test(text.slice(end)) ? end + 2 : end;
      found.push({ phrase: text.slice(start, phraseEnd), start, end: phraseEnd, rule, ...range });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * The range one temporal phrase stands for ("last week", "last 30 days", …).
 * Throws when the phrase is not exactly one reference the resolver knows.
 */
export function resolveTemporal(phrase: string, today: string): DateRange {
  const matches = findTemporal(phrase.trim(), today);
  if (matches.length !== 1 || matches[0].phrase.trim() !== phrase.trim()) {
    throw new Error(
      `Not a temporal reference the rule-based planner knows: "${phrase}". It knows: today, yesterday, this week, last week, this month, last N days, YYYY-MM-DD to YYYY-MM-DD, <Month> <day> to <Month> <day>.`,
    );
  }
  const { date_from, date_to } = matches[0];
  return { date_from, date_to };
}
