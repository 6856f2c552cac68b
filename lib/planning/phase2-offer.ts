import { extractJson } from '@/lib/llm/extract-json';
import type { Registry } from '@/lib/registry';

// Seed 000's Stage 2 planners (AgentsPlanner, ToolsPlanner, …) describe the resources the
// task may go to in the Phase 2 prompt. When Plangate answers that call, it may choose only
// among those: a resource the caller did not offer is one its executor may not have. The
// offer is read from the prompt (registered ids and names it mentions, and the ids of any
// resource list in its JSON) or given outright as `candidates` in the structured form.

const LIST_KEYS = ['agents', 'tools', 'functions', 'llms', 'dsl_workflows', 'dsls', 'workflows', 'resources', 'candidates'];
const MAX_OFFERED = 1000;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `text` mentions `key` as a whole name (so "gpt-4" is not read in "gpt-4o"). */
function mentions(text: string, key: string): boolean {
  if (!key || !text.includes(key)) return false;
  return new RegExp(`(?<![\\w.-])${escape(key)}(?![\\w-]|\\.\\w)`).test(text);
}

/** Every key a registry resource is known by, with the resource's own key. */
function registryKeys(registry: Registry): string[] {
  return [
    ...registry.agents.flatMap((a) => [a.id, a.name ?? '']),
    ...registry.tools.map((t) => t.id),
    ...registry.functions.map((t) => t.id),
    ...registry.llms.map((l) => l.name),
    ...registry.dsl_workflows.map((d) => d.id),
  ].filter(Boolean);
}

/** Ids in resource lists of a JSON value: `{ tools: [{ id }] }`, `[{ uid }]` under a list key, or plain strings there. */
function listedIds(value: unknown, into: Set<string>, depth = 0): void {
  if (!value || typeof value !== 'object' || depth > 4 || into.size >= MAX_OFFERED) return;
  for (const [key, item] of Object.entries(value)) {
    if (LIST_KEYS.includes(key) && Array.isArray(item)) {
      for (const entry of item.slice(0, MAX_OFFERED)) {
        if (typeof entry === 'string') into.add(entry);
        else if (entry && typeof entry === 'object') {
          const { id, uid, name } = entry as Record<string, unknown>;
          for (const k of [id, uid, name]) if (typeof k === 'string' && k) into.add(k);
        }
      }
    } else listedIds(item, into, depth + 1);
  }
}

// "Agents: doc-summarizer-v2, agent-7." as seed 000's planners list what a task may go to.
const PROSE_LIST = /\b(?:agents?|tools?|functions?|llms?|models?|dsl[ _]workflows?|workflows?|resources?|candidates?)[ \t]*:[ \t]*([^\n]*?)(?=\.\s|\.$|\n|$)/gi;
const RESOURCE_ID = /^[\w.:/@-]{1,200}$/;

/** Ids a prompt lists in prose ("Agents: a, b and c"), registered or not. */
function proseListed(prompt: string, into: Set<string>): void {
  for (const match of prompt.slice(0, 50_000).matchAll(PROSE_LIST)) {
    for (const raw of match[1].split(/\s*(?:,|;|\band\b|\bor\b)\s*/)) {
      const id = raw.trim().replace(/^["'`]|["'`]$/g, '');
      if (RESOURCE_ID.test(id) && into.size < MAX_OFFERED) into.add(id);
    }
  }
}

/**
 * The resource keys a Phase 2 prompt offers; empty when it names none. An id it lists that
 * Plangate has not registered still counts as offered, so a prompt offering only unknown
 * resources is refused rather than answered with one it never offered.
 */
export function offeredInPrompt(prompt: string, registry: Registry): string[] {
  const offered = new Set(registryKeys(registry).filter((key) => mentions(prompt, key)));
  proseListed(prompt, offered);
  try {
    listedIds(extractJson(prompt), offered);
  } catch {
    // A prompt without JSON offers what it names.
  }
  return [...offered];
}

/** The registry cut down to the offered resources (an agent by id or name), so a backend sees and may pick only those. */
export function offeredRegistry(registry: Registry, offered: readonly string[]): Registry {
  const keys = new Set(offered);
  return {
    agents: registry.agents.filter((a) => keys.has(a.id) || (a.name !== '' && keys.has(a.name))),
    tools: registry.tools.filter((t) => keys.has(t.id)),
    functions: registry.functions.filter((t) => keys.has(t.id)),
    llms: registry.llms.filter((l) => keys.has(l.name)),
    dsl_workflows: registry.dsl_workflows.filter((d) => keys.has(d.id)),
  };
}
