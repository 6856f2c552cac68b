/**
 * Cortex XML plans (seed 003: calute's CortexPlanner)  <->  seed 000's TaskData.
 *
 * CortexPlanner asks an LLM for `<plan><objective/><complexity/><estimated_time/>
 * <step id="1"><agent/><action/><arguments><k>v</k></arguments><dependencies>1,2
 * </dependencies><description/></step></plan>` and reads the first `<plan>…</plan>` in
 * the answer, so this adapter does the same: prose or a ```xml fence around the element
 * is ignored, and elements the seed's parser does not look at are ignored too. Where
 * the seed's parser would crash (a missing `<agent>`), this one is lenient; where it
 * would fail, this one fails with the line of the problem, because a person has to fix it.
 *
 * Mapping (each step is one PlannerTask):
 * - `id` → task_id, the integer as a string ("1", not "step-1"): dependencies and the
 *   seed's `result_from_step_1` arguments name steps by that integer, so keeping it
 *   lets a plan go out and come back unchanged. Leading zeros are dropped ("01" is
 *   step 1, as the seed's `int()` reads it).
 * - execution_type "agent", `<agent>` → agent_id, `<action>` → parameters.action,
 *   `<arguments>` → arguments (a string map, the element text as the seed keeps it),
 *   `<description>` → description, `<dependencies>` → dependencies.
 * - `<objective>` → job.job_goal.objective and the title (seed 000 spells a goal
 *   `{"objective": …}`); `<complexity>` → job.job_steerability_data.complexity;
 *   `<estimated_time>` (minutes) → job.job_steerability_data.estimated_time_minutes
 *   when it is a number. plan.original_job_data keeps all three as written, so even a
 *   non-numeric estimate ("minutes" in the prompt's own sample) survives a round trip.
 * Agent, action, ids and the plan header are trimmed (they are names); description
 * and argument values are kept verbatim, as the seed's ElementTree `.text` is.
 *
 * serialize writes every element the seed's parser looks up (it crashes on a missing
 * one), gives tasks whose ids are not whole numbers the next free step numbers, and
 * lists in `dropped` whatever a Cortex step has no place for (tool ids, instructions,
 * statuses, non-text argument values written as text, …).
 */

import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { z } from 'zod';
import { buildGraphIndex, findCycle } from '@/lib/graph';
import { Job, TaskData, type JobInput, type PlanDocument, type PlannerTaskInput } from '@/lib/plan';
import { ExportReport, sameJson, type CarriedFields, type ExportedDocument } from './export-drops';
import { FORMAT_LABELS, FormatError, type ParsedPlan, type PlanFormat, type SerializedPlan } from './format';

const FORMAT = 'cortex-xml';

// --- locating the <plan> element --------------------------------------------------

const PLAN_OPEN = /<plan(?:\s[^>]*)?\/?>/;
// Plan tags, and the constructs inside which a "<plan" is not a tag.
const PLAN_TAGS = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<(\/?)plan(?:\s[^>]*?)?(\/?)>/g;

/** Line and column (1-based) of an offset, as an editor shows them. */
function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

interface Located {
  /** The `<plan>` element's text (to the end of the input when it is never closed). */
  xml: string;
  /** Where `xml` starts in the full text, so every reported line is a line of the input. */
  start: number;
}

/**
 * The first `<plan>` element, matched to its own closing tag. The seed's regex stops at
 * the first `</plan>`, which an argument named "plan" also has; counting depth does not.
 */
function locatePlan(text: string): Located {
  PLAN_TAGS.lastIndex = 0;
  let start = -1;
  let depth = 0;
  for (let tag = PLAN_TAGS.exec(text); tag; tag = PLAN_TAGS.exec(text)) {
    if (tag[0].startsWith('<!')) continue;
    const closing = tag[1] === '/';
    const selfClosing = tag[2] === '/';
    if (start === -1) {
      if (closing) continue;
      start = tag.index;
    }
    if (!closing && !selfClosing) depth++;
    else if (closing) depth--;
    if (depth === 0) return { xml: text.slice(start, tag.index + tag[0].length), start };
  }
  if (start === -1) throw new FormatError(FORMAT, '', 'no <plan> element found');
  // An answer cut off mid-plan: read to the end so the validator says what is unclosed.
  return { xml: text.slice(start), start };
}

// --- reading the element tree -----------------------------------------------------

// fast-xml-parser refuses element names such as "constructor" (prototype pollution
// guard), which are fine argument names. Prefixing every element name with "$" makes
// them safe keys; "$" cannot start an XML name, so a prefixed name never collides with
// an unprefixed one. Idempotent because the parser applies it twice to `<empty/>` tags.
const ELEMENT = '$';
const toKey = (name: string): string => (name.startsWith(ELEMENT) ? name : ELEMENT + name);
const ID_ATTRIBUTE = '@_id';
const TEXT = '#text';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  transformTagName: toKey,
  parseTagValue: false,
  parseAttributeValue: false,
  // Whitespace inside a description is content; indentation between elements lands in
  // TEXT keys of container elements, which are never read as values.
  trimValues: false,
  // Numeric character references (&#13;) are standard XML; the option also decodes
  // HTML names (&nbsp;), a harmless kindness to LLM output.
  htmlEntities: true,
  captureMetaData: true,
});
const META = XMLParser.getMetaDataSymbol();
const Meta = z.object({ startIndex: z.number().int().nonnegative(), endIndex: z.number().int().nonnegative().optional() });

/** An element's place in the plan text: [start, end). */
interface Span {
  start: number;
  end: number;
}

type XmlNode = Record<string, unknown>;

// A type guard rather than a zod record: the parser hangs its position metadata on a
// symbol key, which a record schema would reject, and a copy would lose it.
function asNode(value: unknown): XmlNode | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as XmlNode) : null;
}

/** Where an element is in the plan text, when the parser recorded it (element nodes only). */
function spanOf(value: unknown): Span | null {
  if (typeof value !== 'object' || value === null) return null;
  const symbol = Object.getOwnPropertySymbols(value).find((s) => s === META);
  if (symbol === undefined) return null;
  const meta = Meta.safeParse(Reflect.get(value, symbol));
  if (!meta.success) return null;
  return { start: meta.data.startIndex, end: meta.data.endIndex ?? meta.data.startIndex };
}

/** Child elements named `name`, in document order (the parser folds repeats into an array). */
function childrenNamed(node: XmlNode, name: string): unknown[] {
  const value = node[toKey(name)];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** A location, worked out only when an error needs it: a large plan that parses never pays for lines. */
type Where = () => string;

/** Where the plan text, its place in the input and line numbers come together for one parse. */
class Reader {
  private newlines: number[] | null = null;

  constructor(
    private readonly text: string,
    private readonly plan: Located,
  ) {}

  line(offsetInPlan: number): string {
    if (this.newlines === null) {
      this.newlines = [];
      for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) this.newlines.push(i);
    }
    // Binary search: the number of newlines before the offset.
    const offset = this.plan.start + offsetInPlan;
    let lo = 0;
    let hi = this.newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.newlines[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    return `line ${lo + 1}`;
  }

  /** The line of the element, or of its `<name>` child when it has one. */
  lineIn(span: Span | null, name?: string): string {
    if (span === null) return '';
    if (name !== undefined) {
      const hit = new RegExp(`<${name}[\\s/>]`).exec(this.plan.xml.slice(span.start, span.end));
      if (hit) return this.line(span.start + hit.index);
    }
    return this.line(span.start);
  }

  /** Offset of the n-th (0-based) `<step` tag: the fallback for steps the parser kept as plain strings. */
  nthStepTag(n: number): number | null {
    const tag = /<step[\s/>]/g;
    let hit: RegExpExecArray | null = null;
    for (let k = 0; k <= n; k++) {
      hit = tag.exec(this.plan.xml);
      if (!hit) return null;
    }
    return hit ? hit.index : null;
  }

  /**
   * The text of a leaf element (ElementTree's `.text`), or null when it is absent.
   * Markup inside a leaf is refused: it is almost always an unescaped `<` in prose,
   * and reading only part of it would lose words silently.
   */
  leafText(value: unknown, what: string, where: Where): string | null {
    if (value === undefined) return null;
    if (typeof value === 'string') return value;
    const node = asNode(value);
    if (!node) return null;
    const child = Object.keys(node).find((k) => k.startsWith(ELEMENT));
    if (child !== undefined) {
      const span = spanOf(value);
      throw new FormatError(
        FORMAT,
        span === null ? where() : this.lineIn(span),
        `${what} contains the element <${child.slice(ELEMENT.length)}>; write a literal "<" as &lt;`,
      );
    }
    const text = node[TEXT];
    return typeof text === 'string' ? text : '';
  }
}

function validateXml(text: string, plan: Located): void {
  const verdict = XMLValidator.validate(plan.xml);
  if (verdict === true) return;
  const { msg, line, col } = verdict.err;
  // The validator reports a document that ends inside open elements as line 1 with
  // the open tags listed; the end of the text is where the problem is.
  if (/^Invalid '\[/.test(msg) || /^Unclosed tag/.test(msg)) {
    // Listed outermost first; the innermost is the one a reader looks for.
    const open = [...msg.matchAll(/"([^"\s,[\]]+)"|'([^'\s,[\]]+)'/g)].map((m) => `<${m[1] ?? m[2]}>`).reverse();
    const end = positionAt(text, plan.start + plan.xml.length);
    const list = open.length > 0 ? `${open.join(', ')} ${open.length === 1 ? 'is' : 'are'}` : 'an element is';
    throw new FormatError(FORMAT, `line ${end.line}`, `the text ends before ${list} closed (truncated?)`);
  }
  const startPos = positionAt(text, plan.start);
  const absoluteLine = startPos.line + line - 1;
  const column = Number.isFinite(col) ? (line === 1 ? startPos.column + col - 1 : col) : null;
  throw new FormatError(FORMAT, column === null ? `line ${absoluteLine}` : `line ${absoluteLine}, column ${column}`, `malformed XML: ${msg}`);
}

// --- parse ------------------------------------------------------------------------

const STEP_ID = /^\d+$/;
/** Seed 003 reads ids with int(): "01" and "1" are the same step. */
const canonicalId = (raw: string): string => raw.replace(/^0+(?=\d)/, '');

interface StepInfo {
  id: string;
  node: XmlNode;
  span: Span | null;
  where: Where;
}

function nonEmpty(value: string | null): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** Reads every `<step>`'s id, refusing missing, non-numeric and repeated ones. */
function readSteps(reader: Reader, stepValues: unknown[]): StepInfo[] {
  const steps: StepInfo[] = [];
  const byId = new Map<string, StepInfo>();
  stepValues.forEach((value, k) => {
    const recorded = spanOf(value);
    const where: Where = () => {
      const start = recorded?.start ?? reader.nthStepTag(k);
      return start === null ? '' : reader.line(start);
    };
    const node = asNode(value) ?? {};
    const rawId = node[ID_ATTRIBUTE];
    if (typeof rawId !== 'string') throw new FormatError(FORMAT, where(), `step #${k + 1} (in document order) has no id attribute`);
    const trimmed = rawId.trim();
    if (!STEP_ID.test(trimmed)) throw new FormatError(FORMAT, where(), `step id "${rawId}" is not a whole number`);
    const id = canonicalId(trimmed);
    const earlier = byId.get(id);
    if (earlier !== undefined) {
      throw new FormatError(FORMAT, where(), `step id ${id} is used twice (first on ${earlier.where() || 'an earlier step'})`);
    }
    const step = { id, node, span: recorded, where };
    byId.set(id, step);
    steps.push(step);
  });
  return steps;
}

function parseCortexXml(text: string): ParsedPlan {
  const located = locatePlan(text);
  validateXml(text, located);
  const reader = new Reader(text, located);
  const planWhere: Where = () => reader.line(0);

  let tree: unknown;
  try {
    tree = parser.parse(located.xml);
  } catch (error) {
    throw new FormatError(FORMAT, planWhere(), `could not read the XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  const root = asNode(tree);
  const planValue = root ? childrenNamed(root, 'plan')[0] : undefined;
  // `<plan/>` and `<plan>text</plan>` are plans without steps, as the seed reads them.
  const plan = asNode(planValue) ?? {};

  const header = (name: string): string | null => nonEmpty(reader.leafText(childrenNamed(plan, name)[0], `<${name}>`, planWhere));
  const objective = header('objective');
  const complexity = header('complexity');
  const estimatedTime = header('estimated_time');

  const steps = readSteps(reader, childrenNamed(plan, 'step'));
  const ids = new Set(steps.map((s) => s.id));
  const dependenciesWhere = new Map<string, Where>();
  const tasks: PlannerTaskInput[] = steps.map((step) => {
    const child = (name: string) => childrenNamed(step.node, name)[0];
    const what = (name: string) => `step ${step.id}: <${name}>`;
    const childWhere = (name: string): Where => () => reader.lineIn(step.span, name) || step.where();

    const depWhere = childWhere('dependencies');
    dependenciesWhere.set(step.id, depWhere);
    const dependencies: string[] = [];
    const depText = reader.leafText(child('dependencies'), what('dependencies'), depWhere) ?? '';
    // Empty pieces ("1, 2," or "") are tolerated: they name no step.
    for (const piece of depText.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
      if (!STEP_ID.test(piece)) throw new FormatError(FORMAT, depWhere(), `step ${step.id}: dependency "${piece}" is not a step id`);
      const dep = canonicalId(piece);
      if (dep === step.id) throw new FormatError(FORMAT, depWhere(), `step ${step.id}: depends on itself`);
      if (!ids.has(dep)) throw new FormatError(FORMAT, depWhere(), `step ${step.id}: dependency ${dep} does not exist`);
      if (!dependencies.includes(dep)) dependencies.push(dep);
    }

    const args = readArguments(reader, child('arguments'), step.id, childWhere('arguments'));
    const agent = nonEmpty(reader.leafText(child('agent'), what('agent'), step.where));
    const action = nonEmpty(reader.leafText(child('action'), what('action'), step.where));
    const description = reader.leafText(child('description'), what('description'), step.where) ?? '';

    return {
      task_id: step.id,
      description,
      execution_type: 'agent',
      agent_id: agent,
      dependencies,
      parameters: action === null ? {} : { action },
      arguments: args,
    };
  });

  const cycle = findCycle(buildGraphIndex(steps.map((s, k) => ({ task_id: s.id, dependencies: tasks[k].dependencies ?? [] }))));
  if (cycle) {
    // [a, b, …] means a → b → … → a; the closing edge is declared by a's <dependencies>.
    throw new FormatError(FORMAT, dependenciesWhere.get(cycle[0])?.() ?? '', `cycle ${[...cycle, cycle[0]].join(' → ')}`);
  }

  const original: Record<string, string> = { source: FORMAT };
  if (objective !== null) original.objective = objective;
  if (complexity !== null) original.complexity = complexity;
  if (estimatedTime !== null) original.estimated_time = estimatedTime;
  const plannedTasks = { planned_tasks: tasks, original_job_data: original };
  const checked = TaskData.safeParse(plannedTasks);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const [field, index, key] = issue.path;
    const step = field === 'planned_tasks' && typeof index === 'number' ? steps[index] : undefined;
    throw new FormatError(FORMAT, step?.where() ?? '', `${step ? `step ${step.id}: ` : ''}${key === undefined ? '' : `${String(key)}: `}${issue.message}`);
  }

  const minutes = estimatedTime === null ? NaN : Number(estimatedTime);
  const steer: Record<string, string | number> = {};
  if (complexity !== null) steer.complexity = complexity;
  if (Number.isFinite(minutes)) steer.estimated_time_minutes = minutes;
  const hasJob = objective !== null || Object.keys(steer).length > 0;
  const job: JobInput | undefined = hasJob
    ? Job.parse({ job_goal: objective === null ? {} : { objective }, job_steerability_data: steer })
    : undefined;

  return {
    plan: plannedTasks,
    ...(job ? { job } : {}),
    ...(objective !== null ? { title: objective } : {}),
  };
}

function readArguments(reader: Reader, value: unknown, stepId: string, where: Where): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value === 'string') {
    if (value.trim() === '') return {};
    throw new FormatError(FORMAT, where(), `step ${stepId}: <arguments> holds text; write each argument as <name>value</name>`);
  }
  const node = asNode(value) ?? {};
  const loose = node[TEXT];
  if (typeof loose === 'string' && loose.trim() !== '') {
    throw new FormatError(FORMAT, where(), `step ${stepId}: <arguments> holds text outside its argument elements`);
  }
  // Object.fromEntries defines own properties, so "__proto__" stays an ordinary key.
  const entries: Array<[string, string]> = [];
  for (const key of Object.keys(node)) {
    if (!key.startsWith(ELEMENT)) continue;
    const name = key.slice(ELEMENT.length);
    const values = childrenNamed(node, name);
    // A repeated argument keeps its last value, as the seed's dict assignment does.
    const last = values[values.length - 1];
    entries.push([name, reader.leafText(last, `step ${stepId}: argument <${name}>`, where) ?? '']);
  }
  return Object.fromEntries(entries);
}

// --- serialize --------------------------------------------------------------------

// Characters XML 1.0 cannot carry at all, even escaped (C0 controls but tab and
// newlines, U+FFFE/U+FFFF, unpaired surrogates).
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// Element names we can write for an argument: the XML 1.0 Name production within the
// Basic Multilingual Plane (what fast-xml-parser's validator accepts), without ":",
// because ElementTree, which the seed parses with, rejects an undeclared prefix.
const NAME_START = 'A-Za-z_\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD';
const ARGUMENT_NAME = new RegExp(`^[${NAME_START}][${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040]*$`);

// Escaping is ours rather than the builder's so that "\r" can be written as &#13;
// (a literal CR is turned into LF by every XML parser) without "&" being escaped twice.
const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: false,
  processEntities: false,
});

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

/** XML text for `value`; `lose` hears how many characters XML could not carry, when any. */
function textFor(value: string, lose: (text: string) => void): string {
  const invalid = value.match(XML_INVALID);
  if (invalid) lose(`${invalid.length} character(s) XML cannot carry were removed`);
  return escapeText(invalid ? value.replace(XML_INVALID, '') : value);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Integer ids stay as they are; any other id (or a repeat) gets the next free integer,
 * because Cortex steps are numbered. The renaming is reported, since it changes the id.
 */
function stepNumbers(ids: readonly string[], report: ExportReport): string[] {
  const used = new Set<string>();
  const kept: Array<string | null> = ids.map((id) => {
    if (STEP_ID.test(id) && canonicalId(id) === id && !used.has(id)) {
      used.add(id);
      return id;
    }
    return null;
  });
  // BigInt: an id past 2^53 must not make "the next free number" collide with it.
  let next = 1n;
  for (const id of used) if (BigInt(id) >= next) next = BigInt(id) + 1n;
  return kept.map((number, k) => {
    if (number !== null) return number;
    const assigned = String(next++);
    report.task(ids[k], 'task_id', `id written as step ${assigned} (Cortex step ids are whole numbers)`);
    return assigned;
  });
}

function serializeCortexXml(doc: ExportedDocument): SerializedPlan {
  const { plan, job } = doc;
  const report = new ExportReport();
  const tasks = plan.planned_tasks;
  const numbers = stepNumbers(tasks.map((t) => t.task_id), report);
  // A dependency names the first task with that id, as every other reader does.
  const numberOf = new Map<string, string>();
  tasks.forEach((t, k) => {
    if (!numberOf.has(t.task_id)) numberOf.set(t.task_id, numbers[k]);
  });

  const steps = tasks.map((task, k) => {
    const id = task.task_id;
    const dependencies: string[] = [];
    for (const dep of task.dependencies) {
      const number = numberOf.get(dep);
      if (number === undefined) report.task(id, 'dependencies', `dependency on unknown task ${dep}`);
      else if (number === numbers[k]) report.task(id, 'dependencies', 'dependency on itself');
      else if (!dependencies.includes(number)) dependencies.push(number);
    }

    const args: Record<string, string> = {};
    for (const [name, value] of Object.entries(task.arguments)) {
      if (!ARGUMENT_NAME.test(name)) {
        report.task(id, 'arguments', `argument "${name}" (not a usable XML element name)`);
        continue;
      }
      if (name === 'plan') {
        // The seed finds the plan with a regex that stops at the first "</plan>".
        report.task(id, 'arguments', `argument "plan" (the seed's reader would take its end for the end of the plan)`);
        continue;
      }
      let textValue: string;
      if (typeof value === 'string') textValue = value;
      else if (value === null || value === undefined) {
        textValue = '';
        report.task(id, 'arguments', `argument ${name}: null written as empty text`);
      } else {
        textValue = typeof value === 'object' ? JSON.stringify(value) : String(value);
        report.task(id, 'arguments', `argument ${name}: ${Array.isArray(value) ? 'array' : typeof value} written as text`);
      }
      // defineProperty, not assignment: an argument called "__proto__" must stay an argument.
      Object.defineProperty(args, name, {
        value: textFor(textValue, (text) => report.task(id, 'arguments', `argument ${name}: ${text}`)),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }

    const { action } = task.parameters;
    report.uncarriedTask(task, CARRIES);

    return {
      '@_id': numbers[k],
      agent: textFor(task.agent_id ?? '', (text) => report.task(id, 'agent_id', `agent_id: ${text}`)),
      action: typeof action === 'string' ? textFor(action, (text) => report.task(id, 'parameters', `parameters.action: ${text}`)) : '',
      arguments: args,
      dependencies: dependencies.join(','),
      description: textFor(task.description ?? '', (text) => report.task(id, 'description', `description: ${text}`)),
    };
  });

  const header = planHeader(plan.original_job_data, job);
  reportOriginal(plan.original_job_data, header, report);
  report.uncarriedDocument(doc, CARRIES);
  const body = builder.build({
    plan: {
      objective: textFor(header.objective, (text) => report.job('job_goal', `job_goal.objective: ${text}`)),
      complexity: textFor(header.complexity, (text) => report.job('job_steerability_data', `job_steerability_data.complexity: ${text}`)),
      estimated_time: textFor(header.estimatedTime, (text) => report.job('job_steerability_data', `job_steerability_data.estimated_time_minutes: ${text}`)),
      ...(steps.length > 0 ? { step: steps } : {}),
    },
  });
  return report.result(body.endsWith('\n') ? body : `${body}\n`);
}

/** The job's values win over what was imported (the operator may have edited them). */
function planHeader(
  original: Record<string, unknown> | null,
  job: PlanDocument['job'],
): { objective: string; complexity: string; estimatedTime: string } {
  const imported = original ?? {};
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);
  const { objective: goalObjective } = job.job_goal;
  const { complexity: steerComplexity, estimated_time_minutes: steerMinutes } = job.job_steerability_data;
  // "30.0" as imported and 30 in the job are the same estimate: keep the imported spelling.
  const importedTime = text(imported.estimated_time);
  const sameTime = typeof steerMinutes === 'number' && importedTime !== null && Number(importedTime) === steerMinutes;
  return {
    objective: text(goalObjective) ?? text(imported.objective) ?? '',
    complexity: text(steerComplexity) ?? text(imported.complexity) ?? '',
    estimatedTime: (sameTime ? importedTime : text(steerMinutes)) ?? importedTime ?? '',
  };
}

const OWN_JOB_KEYS = ['source', 'objective', 'complexity', 'estimated_time'];

/** Keys of `value` other than `own`, as `<field>.<key>` losses. */
const otherKeys = (field: string, value: Record<string, unknown>, own: readonly string[]): string[] =>
  Object.keys(value).flatMap((key) => (own.includes(key) ? [] : [`${field}.${key}`]));

const CARRIES: CarriedFields = {
  task: {
    // Renumbering, dependencies, argument values and characters XML cannot hold are the adapter's to report.
    task_id: true,
    description: true,
    dependencies: true,
    arguments: true,
    agent_id: (t) => (t.agent_id !== null && t.agent_id !== t.agent_id.trim() ? ['whitespace around agent_id'] : []),
    execution_type: (t) => (!t.execution_type || t.execution_type === 'agent' ? [] : [`execution_type ${t.execution_type} (written as an agent step)`]),
    // Only the action has an element; agent and action are read back trimmed, as names.
    parameters: (t) => {
      const { action } = t.parameters;
      const lost = otherKeys('parameters', t.parameters, ['action']);
      if (action !== undefined && typeof action !== 'string') lost.unshift('parameters.action (not text)');
      if (typeof action === 'string' && action !== action.trim()) lost.unshift('whitespace around parameters.action');
      return lost;
    },
  },
  // The header is read back into original_job_data; reportOriginal says what else it held.
  plan: { original_job_data: true },
  job: {
    job_goal: (j) => otherKeys('job_goal', j.job_goal, ['objective']),
    job_steerability_data: (j) => otherKeys('job_steerability_data', j.job_steerability_data, ['complexity', 'estimated_time_minutes']),
  },
};

/** original_job_data reads back as the header written; anything else it held is lost. */
function reportOriginal(original: Record<string, unknown> | null, header: ReturnType<typeof planHeader>, report: ExportReport): void {
  const readBack: Record<string, string> = { source: FORMAT };
  if (header.objective.trim()) readBack.objective = header.objective.trim();
  if (header.complexity.trim()) readBack.complexity = header.complexity.trim();
  if (header.estimatedTime.trim()) readBack.estimated_time = header.estimatedTime.trim();
  // A plan without original_job_data gains the header's record of it, and loses nothing.
  if (original === null || sameJson(original, readBack)) return;
  const others = isPlainObject(original) ? otherKeys('original_job_data', original, OWN_JOB_KEYS) : [];
  report.plan('original_job_data', others.length > 0 ? others.join(', ') : 'original_job_data (read back as the plan header)');
}

// --- the adapter ------------------------------------------------------------------

export const cortexXmlFormat: PlanFormat = {
  id: FORMAT,
  label: FORMAT_LABELS[FORMAT],
  mediaType: 'application/xml',
  extension: 'xml',

  detect(text) {
    // JSON may well quote a plan's XML inside a string; it is still JSON.
    const start = text.trimStart()[0];
    if (start === '{' || start === '[') return false;
    const open = PLAN_OPEN.exec(text);
    return open !== null && /<(?:step|objective)[\s/>]/.test(text.slice(open.index));
  },

  carries: CARRIES,
  parse: parseCortexXml,
  serialize: serializeCortexXml,
};
