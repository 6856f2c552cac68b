import { readFixture } from '@/lib/formats/test-support';

// Seed 001's seven "Example Queries → Plans", with the fixture each plan was copied to
// (lib/formats/fixtures/planner-agent). The seed's examples resolve dates against
// today = 2025-10-12 (example 1's metadata timestamp is 2025-10-12T06:00:00.000Z).

export const SEED_TODAY = '2025-10-12';

export const SEED_EXAMPLES = [
  { name: 'example 1 (simple query)', file: 'example-1-simple-query.json', query: 'Get shipments from last week' },
  { name: 'example 2 (filtered query)', file: 'example-2-filtered-query.json', query: 'Show me contaminated shipments that were rejected' },
  { name: 'example 3 (location-based query)', file: 'example-3-location-query.json', query: 'Get facilities in Berlin' },
  { name: 'example 4 (multi-step with dependencies)', file: 'example-4-multi-step.json', query: 'Get contaminated shipments and their contaminant details' },
  { name: 'example 5 (location-based with nested data)', file: 'example-5-nested-data.json', query: "Analyse today's contaminants in Hannover" },
  { name: 'example 6 (parallel execution)', file: 'example-6-parallel.json', query: 'Get shipments, facilities, and inspections' },
  { name: 'example 7 (complex 3-step chain)', file: 'example-7-three-step-chain.json', query: 'Get facilities in Berlin, then their shipments, then check for contaminants' },
] as const;

export interface FixtureStep {
  tool: string;
  params: Record<string, unknown>;
  depends_on?: number[];
  parallel?: boolean;
}

export function fixtureText(file: string): string {
  return readFixture('planner-agent', file);
}

export function fixtureSteps(file: string): FixtureStep[] {
  return (JSON.parse(fixtureText(file)) as { steps: FixtureStep[] }).steps;
}
