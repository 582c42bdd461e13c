import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { Delivery, DeliveryState } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface DeliveryPage {
  items: Delivery[];
  nextCursor: string | null;
}

const PAGE_SIZE = 50;
/** The log follows the sender while the screen is open: retries move rows from 'Pendiente' on. */
const REFRESH_MS = 5_000;

/** GET /notifications: the delivery log, newest first, one page per cursor. */
export function getDeliveries(state: DeliveryState | null, cursor: string | null, signal?: AbortSignal): Promise<DeliveryPage> {
  return api.get<DeliveryPage>('/notifications', { state, limit: PAGE_SIZE, cursor }, signal);
}

export function deliveriesQueryOptions(state: DeliveryState | null) {
  return {
    queryKey: [...queryKeys.deliveries, { state }] as const,
    queryFn: ({ pageParam, signal }: { pageParam: string | null; signal: AbortSignal }) => getDeliveries(state, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: DeliveryPage) => last.nextCursor ?? undefined,
  };
}

export function useDeliveries(state: DeliveryState | null) {
  return useInfiniteQuery({ ...deliveriesQueryOptions(state), placeholderData: keepPreviousData, refetchInterval: REFRESH_MS });
}
