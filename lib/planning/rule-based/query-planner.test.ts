// Seed 001's seven example queries plan to the seed's own plans, and the rules around
// them (chains, places, filters, limits, refusals) behave as documented.

import { describe, expect, it } from 'vitest';
import { planQuery, QueryPlanError, RULE_BASED_VOCABULARY, type QueryPlan } from './query-planner';
import { fixtureSteps, SEED_EXAMPLES, SEED_TODAY } from './test-support';

const plan = (query: string, today = SEED_TODAY): QueryPlan => planQuery(query, { today });
const steps = (query: string, today = SEED_TODAY) => plan(query, today).steps;

function refusal(fn: () => unknown): QueryPlanError {
  try {
    fn();
  } catch (error) {
    if (error instanceof QueryPlanError) return error;
    throw error;
  }
  throw new Error('expected a QueryPlanError');
}

describe('planQuery: seed 001 "Example Queries → Plans" (today = 2025-10-12)', () => {
  for (const example of SEED_EXAMPLES) {
    it(`${example.name}: "${example.query}"`, () => {
      const expected = fixtureSteps(example.file);
      const actual = steps(example.query);
      expect(actual.map(({ tool, params, depends_on }) => ({ tool, params, depends_on }))).toEqual(
        expected.map(({ tool, params, depends_on }) => ({ tool, params, depends_on: depends_on ?? [] })),
      );
      expected.forEach((step, i) => {
        if (step.parallel !== undefined) expect(actual[i].parallel, `steps[${i}].parallel`).toBe(step.parallel);
        // The parameters come in the seed's order too, so the plan reads like the seed's.
        expect(Object.keys(actual[i].params), `steps[${i}].params order`).toEqual(Object.keys(step.params));
      });
    });
  }

  it('the same query and today always give the same plan', () => {
    for (const { query } of SEED_EXAMPLES) expect(plan(query)).toEqual(plan(query));
  });

  it('says it is rule-based and which rules fired', () => {
    const { notes } = plan("Analyse today's contaminants in Hannover");
    expect(notes[0]).toBe('Planned by fixed rules, not a language model (today = 2025-10-12).');
    expect(notes).toContain('"contaminants" → step 1 (contaminants_list).');
    expect(notes.some((n) => n.startsWith('"in Hannover": contaminants_list takes no location, so step 0 (facilities_list)'))).toBe(true);
    expect(notes).toContain('"today\'s" → date_from 2025-10-12, date_to 2025-10-12 (today) on step 1 (contaminants_list).');
  });
});

describe('planQuery: the seed\'s other worked queries', () => {
  it('"Multi-Step Planning": contaminated shipments from Berlin facilities', () => {
    // Seed 001, Advanced Features (fixture multi-step-planning.json): facilities first, then their shipments.
    expect(steps('Get contaminated shipments from Berlin facilities')).toEqual([
      { tool: 'facilities_list', params: { location: 'Berlin' }, depends_on: [], parallel: false },
      { tool: 'shipments_list', params: { facility_id: '${step[0].data.*.id}', has_contaminants: true }, depends_on: [0], parallel: false },
    ]);
  });

  it('"Intelligent Parameter Extraction": month-day dates and a destination (plus the default limit)', () => {
    // The seed's plan has no limit; a first shipments_list step gets limit 100 as in examples 1, 2, 4 and 6.
    expect(steps('Get shipments from October 1st to October 10th going to Hannover')).toEqual([
      { tool: 'shipments_list', params: { destination: 'Hannover', date_from: '2025-10-01', date_to: '2025-10-10', limit: 100 }, depends_on: [], parallel: false },
    ]);
  });

  it('"Temporal Examples"', () => {
    expect(steps('Get shipments from last week')[0].params).toMatchObject({ date_from: '2025-10-05', date_to: '2025-10-12' });
    // The seed prints 2025-10-07 here, a Tuesday; its rule is "Monday to today", and 2025-10-12 is a Sunday.
    expect(steps("Show me this week's inspections")).toEqual([
      { tool: 'inspections_list', params: { date_from: '2025-10-06', date_to: '2025-10-12', limit: 100 }, depends_on: [], parallel: false },
    ]);
    expect(steps('Contaminants detected today')[0].params).toEqual({ date_from: '2025-10-12', date_to: '2025-10-12', limit: 100 });
  });

  it('"Which carriers have the highest contamination rates?" → shipments with has_contaminants', () => {
    const { steps: planned, notes } = plan('Which carriers have the highest contamination rates?');
    expect(planned).toEqual([{ tool: 'shipments_list', params: { has_contaminants: true, limit: 100 }, depends_on: [], parallel: false }]);
    expect(notes).toContain('No entity is named; "contamination" is about shipments, so the plan lists shipments.');
  });

  it('"Get shipments from last week with limit 50" → the limit asked for', () => {
    expect(steps('Get shipments from last week with limit 50')[0].params).toEqual({ date_from: '2025-10-05', date_to: '2025-10-12', limit: 50 });
  });

  it('"Show me high-risk contaminants in Berlin facilities" → risk_level on contaminants, narrowed to Berlin facilities', () => {
    expect(steps('Show me high-risk contaminants in Berlin facilities')).toEqual([
      { tool: 'facilities_list', params: { location: 'Berlin' }, depends_on: [], parallel: false },
      { tool: 'contaminants_list', params: { facility_id: '${step[0].data.*.id}', risk_level: 'high' }, depends_on: [0], parallel: false },
    ]);
  });
});

describe('planQuery: rules', () => {
  it('dates follow `today`', () => {
    expect(steps('Get shipments from last week', '2024-03-03')[0].params).toMatchObject({ date_from: '2024-02-25', date_to: '2024-03-03' });
  });

  it('status words, and "shipments with/without contaminants" as a filter rather than a step', () => {
    expect(steps('Get shipments in transit')[0].params).toEqual({ status: 'in_transit', limit: 100 });
    expect(steps('Get accepted shipments with contaminants')).toEqual([
      { tool: 'shipments_list', params: { has_contaminants: true, status: 'accepted', limit: 100 }, depends_on: [], parallel: false },
    ]);
    expect(steps('Get uncontaminated shipments')[0].params).toEqual({ has_contaminants: false, limit: 100 });
    expect(steps('Get shipments without contaminants')[0].params).toEqual({ has_contaminants: false, limit: 100 });
  });

  it('a chain from shipments to inspections maps their facility ids', () => {
    expect(steps('Get rejected shipments, then their inspections')).toEqual([
      { tool: 'shipments_list', params: { status: 'rejected', limit: 100 }, depends_on: [], parallel: false },
      { tool: 'inspections_list', params: { facility_id: '${step[0].data.*.facility_id}' }, depends_on: [0], parallel: false },
    ]);
  });

  it('two entities after one chain word both depend on the step before and run in parallel', () => {
    expect(steps('Get facilities in Munich and their shipments and inspections from yesterday')).toEqual([
      { tool: 'facilities_list', params: { location: 'Munich' }, depends_on: [], parallel: false },
      { tool: 'shipments_list', params: { facility_id: '${step[0].data.*.id}', date_from: '2025-10-11', date_to: '2025-10-11' }, depends_on: [0], parallel: true },
      { tool: 'inspections_list', params: { facility_id: '${step[0].data.*.id}', date_from: '2025-10-11', date_to: '2025-10-11' }, depends_on: [0], parallel: true },
    ]);
  });

  it('a time range written next to facilities goes to the next step that takes dates', () => {
    const { steps: planned, notes } = plan('Get facilities in Berlin this month, then their shipments');
    expect(planned[0].params).toEqual({ location: 'Berlin' });
    expect(planned[1].params).toEqual({ facility_id: '${step[0].data.*.id}', date_from: '2025-10-01', date_to: '2025-10-12' });
    expect(notes.some((n) => n.includes('carried from part 1'))).toBe(true);
  });

  it('a filter with nothing to apply to is reported, not dropped silently', () => {
    const { steps: planned, notes } = plan('Get rejected facilities in Berlin');
    expect(planned).toEqual([{ tool: 'facilities_list', params: { location: 'Berlin' }, depends_on: [], parallel: false }]);
    expect(notes).toContain('Ignored "rejected": only shipments_list takes status, and the query does not list shipments.');
  });

  it('a lower-case place is not guessed at, and the note says so', () => {
    const { steps: planned, notes } = plan('get facilities in berlin');
    expect(planned[0].params).toEqual({});
    expect(notes).toContain('"in berlin" was not read as a place: write place names with a capital letter (e.g. "in Berlin").');
  });
});

describe('planQuery: refusals', () => {
  it('an unrecognisable query throws, saying what the planner understands', () => {
    const error = refusal(() => plan('Show me stuff'));
    expect(error.message).toContain('found nothing it can plan in "Show me stuff"');
    expect(error.message).toContain('shipments, facilities, contaminants or inspections');
    expect(error.message).toContain(RULE_BASED_VOCABULARY);
    expect(refusal(() => plan('   ')).message).toMatch(/^The query is empty/);
  });

  it('a chain no tool can follow throws', () => {
    expect(refusal(() => plan('Get rejected shipments and their facilities')).message).toMatch(
      /^"and their facilities": facilities_list cannot be narrowed to the rows of shipments_list/,
    );
  });

  it('two places, two statuses, a negated status or a place in a later part throw', () => {
    expect(refusal(() => plan('Get facilities in Berlin and Munich')).message).toContain('more than one place');
    expect(refusal(() => plan('Get rejected or accepted shipments')).message).toContain('more than one status');
    expect(refusal(() => plan('Get shipments that are not rejected')).message).toContain('"not rejected"');
    expect(refusal(() => plan('Get rejected shipments, then their inspections in Berlin')).message).toContain('narrows only the first part by place');
  });

  it('today must be a calendar date', () => {
    expect(() => plan('Get shipments', '12.10.2025')).toThrow('today must be a date written YYYY-MM-DD');
    expect(() => plan('Get shipments', '2025-02-30')).toThrow('today is not a calendar date');
  });
});
