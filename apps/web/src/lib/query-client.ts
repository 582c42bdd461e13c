import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client';

/**
 * One client for the whole app; the live socket writes into it directly, so it is a module
 * singleton rather than something created inside a component.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // Live data arrives over the socket; refetching on focus would only duplicate it.
      refetchOnWindowFocus: false,
      retry: (failureCount, error) => {
        // Retry only what may heal by itself: the network and 5xx. A 4xx is an answer.
        if (isApiError(error) && error.status > 0 && error.status < 500) return false;
        return failureCount < 2;
      },
    },
    mutations: { retry: false },
  },
});
