import 'server-only';

/** PLANGATE_REQUIRED_APPROVALS: how many approvals a revision needs (1 unless set to a whole number of at least 1). */
export function requiredApprovals(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.PLANGATE_REQUIRED_APPROVALS ?? 1);
  return Number.isInteger(value) && value >= 1 ? value : 1;
}
