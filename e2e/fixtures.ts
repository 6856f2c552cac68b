import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { adminHeaders, DEMO_PASSWORDS, signIn, stateOf } from './auth-support';

// What the browser specs share: the REST API as the signed-in editor (plans of the test's own,
// under unique titles, so that parallel tests never touch each other's), other people signed
// in in browsers of their own, and page objects for the editor and the review page.

export type Task = { task_id: string; description?: string; execution_type: string; dependencies?: string[] } & Record<string, unknown>;
export interface PlanBody {
  planned_tasks: Task[];
}
interface PlanHead {
  id: string;
  title: string;
  status: string;
  revision: number;
  content_hash: string;
  plan: PlanBody;
  job: unknown;
  subgraphs: unknown[];
  view: { positions: Record<string, { x: number; y: number }> };
}
export interface CreatedPlan {
  id: string;
  title: string;
  revision: number;
  content_hash: string;
}

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** What axe finds against WCAG 2.2 AA on the page as it now is (within `include`, if given), one line per element. */
export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  // Only violations are read: axe skips the detail it would gather for passes and the rest.
  // Legacy mode runs axe in the page itself. The default gathers each frame's partial results
  // and merges them in a new blank page, which cost about 0.7 s of CPU per check (browser and
  // test runner) for pages with no frames to merge: the accessibility sweep alone makes 85 checks.
  const builder = new AxeBuilder({ page }).setLegacyMode(true).withTags(WCAG_22_AA).options({ resultTypes: ['violations'] });
  const results = await (include ? builder.include(include) : builder).analyze();
  return results.violations.flatMap((v) => v.nodes.map((node) => `${v.id} (${v.impact}) at ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ')}`));
}

let made = 0;
/** A title no other test (nor a rerun against the same server) has used. */
export function uniqueTitle(title: string): string {
  made += 1;
  return `${title} ${Date.now().toString(36)}${process.pid.toString(36)}${made}`;
}

/** The plans API, as whoever `request` is signed in as. */
export class PlansApi {
  constructor(
    readonly request: APIRequestContext,
    private readonly headers: Record<string, string> = {},
  ) {}

  /** A new plan (revision 1); its title is made unique unless `exactTitle` says otherwise. */
  async create(title: string, plan: object, { exactTitle = false, ...document }: { exactTitle?: boolean; job?: unknown; subgraphs?: unknown; view?: unknown } = {}): Promise<CreatedPlan> {
    const unique = exactTitle ? title : uniqueTitle(title);
    const response = await this.request.post('/api/plans', { headers: this.headers, data: { title: unique, plan, ...document } });
    expect(response.status(), `creating "${title}"`).toBe(201);
    return { ...(await response.json()), title: unique };
  }

  /** A copy of a demo plan (found by its exact title) for a test to change: the demo itself stays as every test expects it. */
  async copyOfDemo(demoTitle: string): Promise<CreatedPlan> {
    const list = await (await this.request.get(`/api/plans?q=${encodeURIComponent(demoTitle)}`, { headers: this.headers })).json();
    const demo = (list.plans as Array<{ id: string; title: string }>).find((p) => p.title === demoTitle);
    expect(demo, `the demo plan "${demoTitle}"`).toBeDefined();
    const { plan, job, subgraphs, view } = await this.head(demo!.id);
    return this.create(demoTitle, plan, { job, subgraphs, view });
  }

  async head(id: string): Promise<PlanHead> {
    return (await this.request.get(`/api/plans/${id}`, { headers: this.headers })).json();
  }

  save(id: string, body: { base_revision: number; plan: PlanBody; message?: string; view?: unknown; subgraphs?: unknown }) {
    return this.request.put(`/api/plans/${id}`, { headers: this.headers, data: body });
  }

  /** Saves the head with `change` applied to each task (a task it returns unchanged stays so). */
  async saveTasks(id: string, change: (task: Task) => Task, message?: string) {
    const head = await this.head(id);
    return this.save(id, { base_revision: head.revision, plan: { ...head.plan, planned_tasks: head.plan.planned_tasks.map(change) }, message });
  }

  submit(id: string, data?: Record<string, unknown>) {
    return this.request.post(`/api/plans/${id}/submit`, { headers: this.headers, ...(data ? { data } : {}) });
  }

  /** Submits the plan and expects it in review. */
  async submitted(id: string, data?: Record<string, unknown>): Promise<{ revision: number; content_hash: string }> {
    const response = await this.submit(id, data);
    expect(response.status()).toBe(200);
    return response.json();
  }

  /** The executors' hand-off: what GET /approved answers for the plan. */
  async handOff(id: string) {
    const response = await this.request.get(`/api/plans/${id}/approved`, { headers: adminHeaders });
    const body = await response.json();
    return { status: response.status(), code: body.error?.code as string | undefined, revision: body.revision as number | undefined };
  }

  async revisions(id: string): Promise<Array<{ revision: number; author: string; layout_only: boolean; message: string }>> {
    return (await (await this.request.get(`/api/plans/${id}/revisions`, { headers: this.headers })).json()).revisions;
  }

  /** One task of the head revision. */
  async task(id: string, taskId: string): Promise<Task | undefined> {
    return (await this.head(id)).plan.planned_tasks.find((t) => t.task_id === taskId);
  }
}

/** The plan editor at /plans/{id}, as an operator drives it. */
export class PlanEditor {
  readonly inspector: Locator;
  readonly description: Locator;
  readonly saveButton: Locator;
  readonly saved: Locator;

  constructor(readonly page: Page) {
    this.inspector = page.getByRole('complementary', { name: 'Inspector' });
    this.description = page.getByRole('textbox', { name: 'Description' });
    this.saveButton = page.getByRole('button', { name: 'Save', exact: true });
    this.saved = page.getByText('Saved', { exact: true });
  }

  node(label: string): Locator {
    return this.page.getByRole('group', { name: `Task ${label}` });
  }

  /** Opens the plan and waits until its first layout has landed (it runs in a worker and changes the positions). */
  async open(id: string, { query = '', showing }: { query?: string; showing?: string } = {}) {
    await this.page.goto(`/plans/${id}${query}`);
    if (showing) await expect(this.node(showing)).toBeVisible();
    await this.laidOut();
  }

  /** The layout is done: edits made from now on are not followed by its moves. */
  async laidOut(timeout = 30_000) {
    // Enabled once React has taken over the server's HTML and the first layout has landed: a
    // plan without positions for every task is laid out in a Web Worker first (ELK), the
    // slowest step of opening such a plan on a busy machine, and nothing else on the page waits for it.
    await expect(this.page.getByRole('button', { name: 'Tidy up' })).toBeEnabled({ timeout });
  }

  async select(label: string) {
    await this.node(label).click();
  }

  /** Selects a task and types a new description; a field applies what was typed when it loses focus. */
  async describe(label: string, text: string) {
    await this.select(label);
    await this.description.fill(text);
    await this.description.blur();
  }

  /** Saves, answering the question a save that voids an approval or a review asks, and waits for "Saved". */
  async save({ message, confirm }: { message?: string; confirm?: 'void approval' | 'withdraw' } = {}) {
    if (message !== undefined) await this.page.getByRole('textbox', { name: 'Revision message' }).fill(message);
    await this.saveButton.click();
    if (confirm === 'void approval') await this.page.getByRole('alertdialog', { name: 'Save and void the approval?' }).getByRole('button', { name: 'Save and void approval' }).click();
    if (confirm === 'withdraw') await this.page.getByRole('alertdialog', { name: 'Save and withdraw it from review?' }).getByRole('button', { name: 'Save and withdraw' }).click();
    await expect(this.saved).toBeVisible();
  }
}

/** The review page at /plans/{id}/review, as an approver reads it before deciding. */
export class ReviewPage {
  readonly comments: Locator;
  readonly decisions: Locator;
  readonly tasks: Locator;
  readonly canvas: Locator;
  readonly approveButton: Locator;

  constructor(readonly page: Page) {
    this.comments = page.getByRole('region', { name: 'Comments' });
    this.decisions = page.getByRole('list', { name: 'Decisions' });
    this.tasks = page.getByRole('table', { name: 'Tasks and their fields' });
    this.canvas = page.getByRole('region', { name: 'Plan (read-only)' });
    this.approveButton = page.getByRole('button', { name: 'Approve' });
  }

  async open(id: string) {
    await this.page.goto(`/plans/${id}/review`);
  }

  changesSince(revision: number | string): Locator {
    return this.page.getByRole('region', { name: `Changes since revision ${revision}` });
  }

  /** Decides, with a comment if given, and waits for the decision in the list. */
  async decide(decision: 'Approve' | 'Request changes', comment?: string) {
    if (comment !== undefined) await this.page.getByRole('textbox', { name: 'Comment' }).fill(comment);
    await this.page.getByRole('button', { name: decision }).click();
    await expect(this.decisions).toContainText(comment ?? (decision === 'Approve' ? 'approved' : 'changes requested'));
  }
}

interface Fixtures {
  /** The plans API as the signed-in editor (the browser state every UI test starts with). */
  api: PlansApi;
  /** The plans API with the admin token: no browser session needed. */
  adminApi: PlansApi;
  /** The plans API over the test's own request context (the API projects give it the admin token). */
  requestApi: PlansApi;
  editor: PlanEditor;
  /** Someone else, signed in through the form in a browser of their own (closed after the test). */
  signedIn: (username: string, password?: string) => Promise<Page>;
  /** The review page as someone else sees it, signed in in a browser of their own. */
  reviewAs: (username: string) => Promise<ReviewPage>;
  /** Submits a plan as the editor and has the approver approve it. */
  approve: (id: string) => Promise<void>;
}

/**
 * A browser of `username`'s own, signed in: a demo user (no password given) from the state
 * auth.setup.ts saved, anyone else through the sign-in form. The page is blank for a demo user
 * (every caller goes somewhere or uses its request context) and on the home page otherwise.
 */
async function personPage(browser: Browser, baseURL: string | undefined, username: string, password?: string): Promise<Page> {
  const saved = password === undefined && username in DEMO_PASSWORDS;
  const context = await browser.newContext({ baseURL, storageState: saved ? stateOf(username) : { cookies: [], origins: [] } });
  const page = await context.newPage();
  if (!saved) await signIn(page, username, password);
  return page;
}

export const test = base.extend<Fixtures>({
  api: async ({ page }, provide) => provide(new PlansApi(page.request)),
  adminApi: async ({ page }, provide) => provide(new PlansApi(page.request, adminHeaders)),
  requestApi: async ({ request }, provide) => provide(new PlansApi(request)),
  editor: async ({ page }, provide) => provide(new PlanEditor(page)),
  signedIn: async ({ browser, baseURL }, provide) => {
    const pages: Page[] = [];
    await provide(async (username, password) => {
      const page = await personPage(browser, baseURL, username, password);
      pages.push(page);
      return page;
    });
    await Promise.all(pages.map((page) => page.context().close()));
  },
  reviewAs: async ({ signedIn }, provide) => provide(async (username) => new ReviewPage(await signedIn(username))),
  approve: async ({ api, signedIn }, provide) => {
    await provide(async (id) => {
      const submitted = await api.submitted(id);
      // A decision needs a person (the admin token's account is a service account): the approver, signed in.
      const approver = await signedIn('approver');
      const approved = await approver.request.post(`/api/plans/${id}/approve`, { data: { revision: submitted.revision, content_hash: submitted.content_hash } });
      expect(approved.status()).toBe(200);
    });
  },
});

export { expect };
