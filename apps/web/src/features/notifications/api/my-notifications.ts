import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MyNotifications, NotificationPreferences } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /notifications/me: my choices and what the server can send. */
export function useMyNotifications() {
  return useQuery({ queryKey: queryKeys.myNotifications, queryFn: ({ signal }) => api.get<MyNotifications>('/notifications/me', undefined, signal) });
}

/** PUT /notifications/me */
export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (prefs: NotificationPreferences) => api.put<MyNotifications>('/notifications/me', prefs),
    onSuccess: (mine) => queryClient.setQueryData(queryKeys.myNotifications, mine),
  });
}

/** POST /notifications/me/test-push */
export function useTestPush() {
  return useMutation({ mutationFn: () => api.post<{ queued: number }>('/notifications/me/test-push') });
}
