import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateWebhookBody, UpdateWebhookBody, Webhook } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** POST /webhooks answers the webhook with its signing secret, shown this once. */
export type WebhookCreated = Webhook & { secret: string };

/** GET /webhooks (never the secrets). */
export function getWebhooks(signal?: AbortSignal): Promise<Webhook[]> {
  return api.get<Webhook[]>('/webhooks', undefined, signal);
}

export const webhooksQueryOptions = queryOptions({
  queryKey: queryKeys.webhooks,
  queryFn: ({ signal }) => getWebhooks(signal),
});

export function useWebhooks() {
  return useQuery(webhooksQueryOptions);
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWebhookBody) => api.post<WebhookCreated>('/webhooks', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks }),
  });
}

/** PATCH /webhooks/{id}: 'Desactivar' / 'Activar' and edits. */
export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdateWebhookBody }) => api.patch<Webhook>(`/webhooks/${encodeURIComponent(id)}`, changes),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/webhooks/${encodeURIComponent(id)}`),
    // The escalation policy may name the webhook.
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.webhooks }), queryClient.invalidateQueries({ queryKey: queryKeys.escalation })]),
  });
}

/** POST /webhooks/{id}/test: 'Enviar prueba'; the delivery shows up in the log at once. */
export function useTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<{ queued: number }>(`/webhooks/${encodeURIComponent(id)}/test`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.deliveries }),
  });
}
