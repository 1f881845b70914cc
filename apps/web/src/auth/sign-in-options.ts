import { useQuery } from '@tanstack/react-query';
import { get } from '../api/client';
import type { SignInOptions } from '../api/types';

/** What this board offers at sign-in (the server's settings: read once per page load). */
export function useSignInOptions() {
  return useQuery({ queryKey: ['sign-in-options'], queryFn: () => get<SignInOptions>('/auth/config'), staleTime: Infinity });
}
