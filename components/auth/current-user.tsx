'use client';

import { createContext, useContext } from 'react';
import type { Role } from '@/lib/auth/roles';

// Who the page was rendered for, as the root layout knows it: the inline sign-in lets only
// this user back in when their session ends mid-edit.

export interface CurrentUser {
  username: string;
  role: Role;
}

const Context = createContext<CurrentUser | null>(null);

export function CurrentUserProvider({ user, children }: { user: CurrentUser | null; children: React.ReactNode }) {
  return <Context.Provider value={user}>{children}</Context.Provider>;
}

export function useCurrentUser(): CurrentUser | null {
  return useContext(Context);
}
