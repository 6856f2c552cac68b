/**
 * An offline, rule-based Stage 1 planner for questions about shipments (seed 001's
 * Planner Agent, without the language model). It reads a query with fixed rules and
 * writes a Planner Agent plan: `{ tool, params, depends_on, parallel }` steps. The same
 * query and `today` always give the same plan, and `notes` say which rules fired, so
 * the operator can see that nothing was inferred beyond them.
 *
 * The rules, in the order they apply:
 *
 * 1. Parts. "then", "and then" and "and/with … their" split the query into parts; each
 *    part after the first works on the rows of the part before it (a chain).
 * 2. Entities → tools. shipment(s) → shipments_list, facility/facilities →
 *    facilities_list, contaminant(s) → contaminants_list, inspection(s) →
 *    inspections_list. Several in one part with no chain word between them
 *    ("shipments, facilities, and inspections") are independent steps marked parallel.
 *    "contaminated …" / "contamination" with no entity named means shipments.
 * 3. Filters, on the step of the part they are written in: "contaminated" →
 *    has_contaminants: true (shipments); "uncontaminated", "without contaminants" →
 *    false; rejected / accepted / pending / delivered / in transit → status
 *    (shipments); high/medium/low-risk → risk_level (contaminants); "going to <City>"
 *    → destination (shipments); "limit N", "top N", "first N" → limit.
 * 4. Places. "in/at/from/near <City>" (a capitalised name) → location on
 *    facilities_list. On any other entity, and for "from <City> facilities", a
 *    facilities_list step comes first and the entity takes its rows' ids as
 *    facility_id (the seed's examples 5 and "Multi-Step Planning").
 * 5. Chains: a step takes the rows of the step it depends on through a template:
 *    facilities → shipments/contaminants/inspections: facility_id = ${step[i].data.*.id};
 *    shipments → contaminants: shipment_ids = ${step[i].data.*.id};
 *    shipments → inspections: facility_id = ${step[i].data.*.facility_id};
 *    inspections → shipments/contaminants: facility_id = ${step[i].data.*.facility_id}.
 * 6. Time (./temporal.ts) → date_from/date_to on the shipments, contaminants and
 *    inspections steps of the part the phrase is in (facilities_list takes no dates).
 * 7. Limit 100 on a first step that lists shipments, inspections or contaminants;
 *    a step fed by an earlier step is bounded by it and gets none, nor does
 *    facilities_list (as in every example of the seed).
 *
 * Parameters are written in a fixed order (the template first, then filters, then
 * dates, then limit), which is the order of the seed's example plans.
 */

import { findTemporal, assertIsoDate, type TemporalMatch } from './temporal';

export interface PlanStep {
  tool: string;
  params: Record<string, unknown>;
  depends_on: number[];
  parallel: boolean;
}

export interface QueryPlan {
  steps: PlanStep[];
  /** Which rules fired, in words for the operator. */
  notes: string[];
}

/** The planner would rather refuse than guess: the message says what it could not read. */
export class QueryPlanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryPlanError';
  }
}

export type Entity = 'shipments' | 'facilities' | 'contaminants' | 'inspections';

export const ENTITY_TOOLS: Record<Entity, string> = {
  shipments: 'shipments_list',
  facilities: 'facilities_list',
  contaminants: 'contaminants_list',
  inspections: 'inspections_list',
};

/** What the planner understands, for error messages and the operator's help text. */
export const RULE_BASED_VOCABULARY = [
  'entities: shipments, facilities, contaminants, inspections',
  'filters: contaminated / uncontaminated, status (pending, accepted, rejected, in transit, delivered), high/medium/low-risk, "in <City>", "going to <City>", "limit N"',
  'time: today, yesterday, this week, last week, this month, last N days, YYYY-MM-DD to YYYY-MM-DD, <Month> <day> to <Month> <day>',
  'chains: "then", "and their …" (e.g. "Get facilities in Berlin, then their shipments, then check for contaminants")',
].join('; ');

export const DEFAULT_LIMIT = 100;
const LIMITED_BY_DEFAULT = new Set<Entity>(['shipments', 'inspections', 'contaminants']);
const DATED = new Set<Entity>(['shipments', 'contaminants', 'inspections']);

interface Link {
  param: string;
  /** Field of the upstream rows the template maps over. */
  field: string;
}

const LINKS: Partial<Record<Entity, Partial<Record<Entity, Link>>>> = {
  facilities: {
    shipments: { param: 'facility_id', field: 'id' },
    contaminants: { param: 'facility_id', field: 'id' },
    inspections: { param: 'facility_id', field: 'id' },
  },
  shipments: {
    contaminants: { param: 'shipment_ids', field: 'id' },
    inspections: { param: 'facility_id', field: 'facility_id' },
  },
  inspections: {
    shipments: { param: 'facility_id', field: 'facility_id' },
    contaminants: { param: 'facility_id', field: 'facility_id' },
  },
};

const PARAM_ORDER = ['shipment_ids', 'facility_id', 'has_contaminants', 'status', 'risk_level', 'location', 'destination', 'date_from', 'date_to', 'limit'];

const STATUS_VALUES: Record<string, string> = {
  rejected: 'rejected',
  accepted: 'accepted',
  pending: 'pending',
  delivered: 'delivered',
  'in transit': 'in_transit',
  'in-transit': 'in_transit',
  in_transit: 'in_transit',
};

const MONTH_AND_DAY_NAMES = new Set(
  [
    'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
    'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
    'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
    'today', 'yesterday', 'last', 'this',
  ],
);

// Lower-case words after "in"/"at"/"near" that are plainly not places, so no note is written for them.
const NOT_PLACES = new Set([
  'transit', 'the', 'a', 'an', 'all', 'any', 'each', 'every', 'their', 'them', 'those', 'these', 'this', 'that', 'last', 'past',
  'total', 'general', 'particular', 'detail', 'details', 'order', 'progress', 'time', 'least', 'most', 'once', 'one', 'our', 'my',
  'which', 'what', 'where', 'risk', 'case', 'stock', 'use', 'full', 'short', 'advance', 'question', 'today', 'yesterday',
]);

// ---------------------------------------------------------------------------------
// Reading the query

interface Mention {
  entity: Entity;
  start: number;
  end: number;
  word: string;
}

interface Part {
  start: number;
  end: number;
  text: string;
  /** The chain words that opened this part ("then", "and their"), null for the first. */
  connector: string | null;
  primaries: Mention[];
  /** "from Berlin facilities": facilities named only to narrow the primaries. */
  scope: Mention | null;
  contaminated: { value: boolean; phrase: string } | null;
  status: { value: string; phrase: string } | null;
  risk: { value: string; phrase: string } | null;
  location: { value: string; phrase: string } | null;
  destination: { value: string; phrase: string } | null;
  limit: { value: number; phrase: string } | null;
  temporal: TemporalMatch | null;
}

const CHAIN = /,?\s*(?:\b(?:and\s+)?then\b\s*|\b(?:and|with|plus|including)\s+(?=their\b))|,\s*(?=their\b)/gi;
const ENTITY_WORD = /\b(shipments?|facilit(?:y|ies)|contaminants?|inspections?)\b/i;
const ENTITY = new RegExp(ENTITY_WORD.source, 'gi');
const CAPITALISED = "\\p{Lu}[\\p{L}'’.-]*(?:\\s+\\p{Lu}[\\p{L}'’.-]*)*";
const PLACE = new RegExp(`\\b(?:in|at|from|near)\\s+(${CAPITALISED})`, 'gu');
const LOWER_PLACE = /\b(?:in|at|near)\s+(\p{Ll}[\p{L}'’-]*)/gu;
const DESTINATION = new RegExp(`\\b(?:going|bound|headed|heading|destined|shipped|sent)\\s+(?:to|for)\\s+(${CAPITALISED})`, 'gu');
const SCOPE_BEFORE = /\b(?:from|in|at|of)\s+(?:(?:the|all|our)\s+)?(?:\p{Lu}[\p{L}'’.-]*\s+)*$/u;
const CONTAMINANT_FILTER_TRUE = /^\s+(?:with|having|that\s+have|which\s+have|that\s+had|containing)\s+(?:any\s+)?$/i;
const CONTAMINANT_FILTER_FALSE = /^\s+(?:without|with\s+no|free\s+of)\s+(?:any\s+)?$/i;
const CONTAMINATED = /\b(?:contaminated|contamination)\b/gi;
const NOT_CONTAMINATED = /\b(?:uncontaminated|non-?contaminated|not\s+contaminated|contamination[\s-]free)\b/gi;
const STATUS = /\b(rejected|accepted|pending|delivered|in[\s_-]transit)\b/gi;
const NOT_STATUS = /\b(?:not|non-?|never)\s*(?:yet\s+|been\s+)?(?:rejected|accepted|pending|delivered|in[\s_-]transit)\b/i;
const RISK = /\b(high|medium|low)[\s-]risk\b/gi;
const LIMIT = /\b(?:limit(?:ed)?(?:\s+(?:to|of))?|top|first|at\s+most|max(?:imum)?(?:\s+of)?)\s+(\d+)\b/gi;

const quote = (text: string) => `"${text.trim()}"`;

function entityOf(word: string): Entity {
  const w = word.toLowerCase();
  if (w.startsWith('shipment')) return 'shipments';
  if (w.startsWith('facilit')) return 'facilities';
  if (w.startsWith('contaminant')) return 'contaminants';
  return 'inspections';
}

function splitParts(query: string): Array<Pick<Part, 'start' | 'end' | 'text' | 'connector'>> {
  const parts: Array<Pick<Part, 'start' | 'end' | 'text' | 'connector'>> = [];
  let start = 0;
  let connector: string | null = null;
  for (const m of query.matchAll(CHAIN)) {
    parts.push({ start, end: m.index, text: query.slice(start, m.index), connector });
    const words = m[0].replace(/,/g, ' ').trim().replace(/\s+/g, ' ');
    connector = /then$/i.test(words) ? words : `${words ? `${words} ` : ''}their`;
    start = m.index + m[0].length;
  }
  parts.push({ start, end: query.length, text: query.slice(start), connector });
  return parts;
}

function onlyOne<T extends { value: unknown; phrase: string }>(found: T[], what: string): T | null {
  const distinct = [...new Map(found.map((f) => [JSON.stringify(f.value), f])).values()];
  if (distinct.length > 1) {
    throw new QueryPlanError(
      `The query asks for more than one ${what} in one part (${distinct.map((f) => quote(f.phrase)).join(', ')}); the rule-based planner takes one ${what} per step. Ask for each separately.`,
    );
  }
  return distinct[0] ?? null;
}

function readPart(query: string, base: Pick<Part, 'start' | 'end' | 'text' | 'connector'>, temporal: TemporalMatch[]): Part {
  const { text, start } = base;
  const mentions: Mention[] = [...text.matchAll(ENTITY)].map((m) => ({
    entity: entityOf(m[1]),
    start: start + m.index,
    end: start + m.index + m[0].length,
    word: m[0],
  }));

  const contaminatedFound: Array<{ value: boolean; phrase: string }> = [];
  const primaries: Mention[] = [];
  let scope: Mention | null = null;
  mentions.forEach((mention, i) => {
    const previous = i > 0 ? mentions[i - 1] : null;
    const between = previous ? query.slice(previous.end, mention.start) : '';
    if (previous?.entity === 'shipments' && mention.entity === 'contaminants') {
      if (CONTAMINANT_FILTER_TRUE.test(between)) {
        contaminatedFound.push({ value: true, phrase: query.slice(previous.end, mention.end) });
        return;
      }
      if (CONTAMINANT_FILTER_FALSE.test(between)) {
        contaminatedFound.push({ value: false, phrase: query.slice(previous.end, mention.end) });
        return;
      }
    }
    if (mention.entity === 'facilities' && previous && primaries.length > 0 && SCOPE_BEFORE.test(between)) {
      scope = mention;
      return;
    }
    if (!primaries.some((p) => p.entity === mention.entity)) primaries.push(mention);
  });

  const negated: Array<[number, number]> = [];
  for (const m of text.matchAll(NOT_CONTAMINATED)) {
    negated.push([m.index, m.index + m[0].length]);
    contaminatedFound.push({ value: false, phrase: m[0] });
  }
  for (const m of text.matchAll(CONTAMINATED)) {
    if (!negated.some(([s, e]) => m.index >= s && m.index < e)) contaminatedFound.push({ value: true, phrase: m[0] });
  }

  const negatedStatus = NOT_STATUS.exec(text);
  if (negatedStatus) {
    throw new QueryPlanError(
      `${quote(negatedStatus[0])}: shipments_list filters on one status, not on its absence. Name the status wanted (pending, accepted, rejected, in transit or delivered).`,
    );
  }
  const status = onlyOne(
    [...text.matchAll(STATUS)].map((m) => ({ value: STATUS_VALUES[m[1].toLowerCase().replace(/\s+/, ' ')], phrase: m[0] })),
    'status',
  );
  const risk = onlyOne([...text.matchAll(RISK)].map((m) => ({ value: m[1].toLowerCase(), phrase: m[0] })), 'risk level');

  const destinations = [...text.matchAll(DESTINATION)].map((m) => ({ value: m[1], phrase: m[0], start: m.index }));
  const places = [...text.matchAll(PLACE)]
    .filter((m) => !MONTH_AND_DAY_NAMES.has(m[1].split(/\s+/)[0].toLowerCase()) && !ENTITY_WORD.test(m[1]))
    .map((m) => {
      const after = text.slice(m.index + m[0].length);
      const more = /^\s*(?:,|and|or|&)\s*(\p{Lu}[\p{L}'’.-]*)/u.exec(after);
      if (more && !MONTH_AND_DAY_NAMES.has(more[1].toLowerCase())) {
        throw new QueryPlanError(
          `${quote(m[0] + more[0])} names more than one place; facilities_list takes one location. Ask for each place separately.`,
        );
      }
      return { value: m[1].replace(/['’]s$/, ''), phrase: m[0].replace(/['’]s$/, '') };
    });

  const limit = onlyOne(
    [...text.matchAll(LIMIT)].map((m) => {
      const value = Number(m[1]);
      if (value < 1 || value > 1000) throw new QueryPlanError(`${quote(m[0])}: a limit is between 1 and 1000.`);
      return { value, phrase: m[0] };
    }),
    'limit',
  );

  const mine = temporal.filter((t) => t.start >= base.start && t.start < base.end);
  if (mine.length > 1) {
    throw new QueryPlanError(
      `The query gives more than one time range in one part (${mine.map((t) => quote(t.phrase)).join(', ')}); the rule-based planner takes one per step.`,
    );
  }

  return {
    ...base,
    primaries,
    scope,
    contaminated: onlyOne(contaminatedFound, 'contamination filter'),
    status,
    risk,
    location: onlyOne(places, 'location'),
    destination: onlyOne(destinations, 'destination'),
    limit,
    temporal: mine[0] ?? null,
  };
}

// ---------------------------------------------------------------------------------
// Writing the plan

interface Draft {
  entity: Entity;
  params: Map<string, unknown>;
  depends_on: number[];
  parallel: boolean;
}

function ordered(params: Map<string, unknown>): Record<string, unknown> {
  const rank = (key: string) => {
    const i = PARAM_ORDER.indexOf(key);
    return i === -1 ? PARAM_ORDER.length : i;
  };
  return Object.fromEntries([...params.entries()].sort(([a], [b]) => rank(a) - rank(b)));
}

/** The words of a part as written, chain words included ("then their shipments"). */
function partPhrase(part: Pick<Part, 'connector' | 'text'>): string {
  const text = part.text.trim();
  if (!part.connector) return text;
  return part.connector.endsWith('their') ? `${part.connector.slice(0, -'their'.length)}${text}`.trim() : `${part.connector} ${text}`;
}

const label = (index: number, draft: Draft) => `step ${index} (${ENTITY_TOOLS[draft.entity]})`;

function template(upstream: number, field: string): string {
  return `\${step[${upstream}].data.*.${field}}`;
}

/**
 * Plans `query` with fixed rules, dates resolved against `options.today` (YYYY-MM-DD).
 * Throws QueryPlanError when the query names nothing the planner knows, or asks for
 * something its rules cannot express (a chain no tool can follow, two statuses, …).
 */
export function planQuery(query: string, options: { today: string }): QueryPlan {
  const today = assertIsoDate(options.today);
  const text = query.trim();
  const notes: string[] = [`Planned by fixed rules, not a language model (today = ${today}).`];
  if (text === '') throw new QueryPlanError(`The query is empty. The rule-based planner understands ${RULE_BASED_VOCABULARY}.`);

  const temporal = findTemporal(text, today);
  const parts = splitParts(text).map((base) => readPart(text, base, temporal));

  // Rule 2: contamination or a status with no entity named means shipments.
  if (parts.every((p) => p.primaries.length === 0)) {
    const hinted = parts.find((p) => p.contaminated || p.status || p.destination);
    if (hinted) {
      const why = hinted.contaminated?.phrase ?? hinted.status?.phrase ?? hinted.destination?.phrase ?? '';
      hinted.primaries.push({ entity: 'shipments', start: hinted.start, end: hinted.start, word: '' });
      notes.push(`No entity is named; ${quote(why)} is about shipments, so the plan lists shipments.`);
    }
  }
  if (parts.every((p) => p.primaries.length === 0)) {
    throw new QueryPlanError(
      `The rule-based planner found nothing it can plan in ${quote(text)}: name what to fetch (shipments, facilities, contaminants or inspections). It understands ${RULE_BASED_VOCABULARY}.`,
    );
  }

  const drafts: Draft[] = [];
  let upstream: number[] = []; // steps of the last part that had any
  let pendingTime: { match: TemporalMatch; from: string } | null = null;

  parts.forEach((part, partIndex) => {
    const where = parts.length > 1 ? `part ${partIndex + 1} (${quote(partPhrase(part))})` : 'the query';
    if (part.primaries.length === 0) {
      const ignored = [part.contaminated, part.status, part.risk, part.location, part.destination, part.limit].filter((f) => f !== null);
      notes.push(
        `Ignored ${where}: it names no shipments, facilities, contaminants or inspections${ignored.length > 0 ? `, so ${ignored.map((f) => quote(f.phrase)).join(', ')} has nothing to apply to` : ''}.`,
      );
      if (part.temporal) pendingTime = { match: part.temporal, from: where };
      return;
    }

    const chained = upstream.length > 0;
    const place = part.location;
    const primaryHasFacilities = part.primaries.some((p) => p.entity === 'facilities');
    const needsScope = !primaryHasFacilities && (part.scope !== null || place !== null);

    if (chained && (needsScope || (place && primaryHasFacilities))) {
      const what = place ? quote(place.phrase) : quote(part.scope?.word ?? 'facilities');
      throw new QueryPlanError(
        `${what} narrows a later part of the query by place; the rule-based planner narrows only the first part by place. Start with the place, e.g. "Get facilities in Berlin, then their shipments".`,
      );
    }

    // Rule 4: a facilities_list step to narrow the entities to a place.
    const linkNotes: string[] = [];
    let scopeIndex: number | null = null;
    if (needsScope) {
      const params = new Map<string, unknown>();
      if (place) params.set('location', place.value);
      scopeIndex = drafts.push({ entity: 'facilities', params, depends_on: [], parallel: false }) - 1;
      const named = part.primaries.map((p) => ENTITY_TOOLS[p.entity]).join(' and ');
      const said = place?.phrase ?? `from ${part.scope?.word ?? 'facilities'}`;
      const listed = place ? `the facilities with location "${place.value}"` : 'all facilities';
      linkNotes.push(
        `${quote(said)}: ${named} takes no location, so step ${scopeIndex} (facilities_list) lists ${listed} and ${part.primaries.length > 1 ? 'the steps after it take' : 'the step after it takes'} their ids as facility_id = "${template(scopeIndex, 'id')}".`,
      );
    }

    const mine: number[] = [];
    for (const mention of part.primaries) {
      const draft: Draft = { entity: mention.entity, params: new Map(), depends_on: [], parallel: false };
      const index = drafts.length;
      if (scopeIndex !== null) {
        draft.params.set('facility_id', template(scopeIndex, 'id'));
        draft.depends_on.push(scopeIndex);
      } else if (chained) {
        // Rule 5: the latest step of the previous part whose rows this tool can take.
        const source = [...upstream].reverse().find((u) => LINKS[drafts[u].entity]?.[mention.entity]);
        if (source === undefined) {
          const from = upstream.map((u) => ENTITY_TOOLS[drafts[u].entity]).join(' / ');
          throw new QueryPlanError(
            `${quote(partPhrase(part))}: ${ENTITY_TOOLS[mention.entity]} cannot be narrowed to the rows of ${from} (none of its parameters takes them). The rule-based planner can chain facilities → shipments, contaminants or inspections; shipments → contaminants or inspections; inspections → shipments or contaminants.`,
          );
        }
        const link = LINKS[drafts[source].entity]![mention.entity]!;
        draft.params.set(link.param, template(source, link.field));
        draft.depends_on.push(source);
        linkNotes.push(
          `${quote(part.connector ?? '')} → step ${index} depends on ${label(source, drafts[source])} and takes its rows as ${link.param} = "${template(source, link.field)}".`,
        );
      }
      drafts.push(draft);
      mine.push(index);
    }
    const named = part.primaries.filter((p) => p.word !== '');
    if (named.length > 0) {
      const prefix = parts.length > 1 ? `Part ${partIndex + 1}, ${quote(partPhrase(part))}: ` : '';
      notes.push(`${prefix}${named.map((p) => quote(p.word)).join(', ')} → ${mine.map((i) => label(i, drafts[i])).join(', ')}.`);
    }
    notes.push(...linkNotes);
    if (mine.length > 1) {
      mine.forEach((i) => (drafts[i].parallel = true));
      notes.push(`Steps ${mine.join(', ')} are named together with no chain word between them, so they do not depend on each other and are marked parallel.`);
    }

    // Rule 3: filters on the steps of this part that take them.
    const stepOf = (entity: Entity) => mine.find((i) => drafts[i].entity === entity);
    const apply = (
      found: { value: unknown; phrase: string } | null,
      entity: Entity,
      param: string,
      why?: string,
    ) => {
      if (!found) return;
      const target = stepOf(entity);
      if (target === undefined) {
        notes.push(`Ignored ${quote(found.phrase)}: only ${ENTITY_TOOLS[entity]} takes ${param}, and ${where} does not list ${entity}.`);
        return;
      }
      drafts[target].params.set(param, found.value);
      notes.push(`${quote(found.phrase)} → ${param}: ${JSON.stringify(found.value)} on ${label(target, drafts[target])}${why ? ` (${why})` : ''}.`);
    };
    apply(part.contaminated, 'shipments', 'has_contaminants');
    apply(part.status, 'shipments', 'status');
    apply(part.risk, 'contaminants', 'risk_level');
    apply(part.destination, 'shipments', 'destination');
    if (place && primaryHasFacilities) apply(place, 'facilities', 'location');
    if (place && primaryHasFacilities && mine.length > 1) {
      notes.push(`${quote(place.phrase)} narrows only the facilities; the other steps of ${where} are not narrowed by place.`);
    }

    // Rule 6: time on the steps that take dates, here or carried from a part with none.
    const dated = mine.filter((i) => DATED.has(drafts[i].entity));
    const time = part.temporal ?? pendingTime?.match ?? null;
    if (pendingTime && part.temporal) notes.push(`Ignored ${quote(pendingTime.match.phrase)} from ${pendingTime.from}: ${where} has its own time range.`);
    if (time && dated.length === 0) {
      pendingTime = { match: time, from: where };
    } else if (time) {
      for (const i of dated) {
        drafts[i].params.set('date_from', time.date_from);
        drafts[i].params.set('date_to', time.date_to);
      }
      const carried = part.temporal ? '' : ` (carried from ${pendingTime?.from}, whose steps take no dates)`;
      notes.push(
        `${quote(time.phrase)} → date_from ${time.date_from}, date_to ${time.date_to} (${time.rule}) on ${dated.map((i) => label(i, drafts[i])).join(', ')}${carried}.`,
      );
      pendingTime = null;
    }

    // Rule 7: limits.
    if (part.limit) {
      for (const i of mine) drafts[i].params.set('limit', part.limit.value);
      notes.push(`${quote(part.limit.phrase)} → limit ${part.limit.value} on ${mine.map((i) => label(i, drafts[i])).join(', ')}.`);
    } else {
      const limited = mine.filter((i) => drafts[i].depends_on.length === 0 && LIMITED_BY_DEFAULT.has(drafts[i].entity));
      for (const i of limited) drafts[i].params.set('limit', DEFAULT_LIMIT);
      if (limited.length > 0) {
        notes.push(`Default limit ${DEFAULT_LIMIT} on ${limited.map((i) => label(i, drafts[i])).join(', ')}: a first step listing shipments, inspections or contaminants is capped; steps fed by an earlier step and facilities_list are not.`);
      }
    }

    upstream = mine;
  });

  if (pendingTime !== null) {
    const { match } = pendingTime as { match: TemporalMatch };
    notes.push(`Ignored ${quote(match.phrase)}: no step after it takes dates (facilities_list takes none).`);
  }

  for (const part of parts) {
    for (const m of part.text.matchAll(LOWER_PLACE)) {
      const word = m[1].toLowerCase();
      if (!NOT_PLACES.has(word) && !MONTH_AND_DAY_NAMES.has(word) && !ENTITY_WORD.test(word)) {
        notes.push(`${quote(m[0])} was not read as a place: write place names with a capital letter (e.g. "in Berlin").`);
      }
    }
  }

  const steps: PlanStep[] = drafts.map((d) => ({
    tool: ENTITY_TOOLS[d.entity],
    params: ordered(d.params),
    depends_on: [...d.depends_on],
    parallel: d.parallel,
  }));
  return { steps, notes };
}
