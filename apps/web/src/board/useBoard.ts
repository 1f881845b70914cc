import { useQuery } from '@tanstack/react-query';
import { get } from '../api/client';
import type { Board } from '../api/types';

export function useBoard(projectId: string) {
  return useQuery({
    queryKey: ['board', projectId],
    queryFn: () => get<Board>(`/projects/${projectId}/board`),
    staleTime: 60_000,
  });
}
