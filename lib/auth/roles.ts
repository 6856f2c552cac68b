import { z } from 'zod';

/** Ordered: each role can do everything the roles before it can. */
export const ROLES = ['viewer', 'editor', 'approver', 'admin'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** A stored role as Plangate reads it: anything unknown counts as the least one. */
export const roleOf = (value: unknown): Role => Role.catch('viewer').parse(value);

export function hasRole(role: Role, atLeast: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(atLeast);
}

export const ROLE_DUTIES: Record<Role, string> = {
  viewer: 'reads plans',
  editor: 'edits, imports and submits plans',
  approver: 'approves, requests changes or rejects',
  admin: 'manages users and tokens',
};
