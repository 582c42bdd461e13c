import { queryOptions, useQuery } from '@tanstack/react-query';

export interface Health {
  status: string;
  /** Present with the embedded broker; absent when an external broker is used. */
  mqtt?: { port?: number };
}

// /api/health sits outside /api/v1 and needs no session, so it is fetched directly.
export async function getHealth(signal?: AbortSignal): Promise<Health> {
  const response = await fetch('/api/health', { headers: { Accept: 'application/json' }, signal });
  return (await response.json()) as Health;
}

export const healthQueryOptions = queryOptions({
  queryKey: ['health'] as const,
  queryFn: ({ signal }) => getHealth(signal),
  staleTime: 5 * 60_000,
  retry: false,
});

/** The embedded MQTT broker's port for the firmware snippet, or null when unknown. */
export function useMqttPort(): number | null {
  const { data } = useQuery(healthQueryOptions);
  const port = data?.mqtt?.port;
  return typeof port === 'number' && port > 0 ? port : null;
}
