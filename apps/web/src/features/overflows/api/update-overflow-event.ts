import { useMutation } from '@tanstack/react-query';
import type { OverflowEvent, OverflowEventPatch } from '@agua/shared';
import { api } from '@/lib/api-client';
import { storeOverflowEvents } from '@/lib/overflow-cache';

/** PATCH /overflow-events/{id}: cause, notes, when the authority was told (null clears). */
export function updateOverflowEvent(id: string, patch: OverflowEventPatch): Promise<OverflowEvent> {
  return api.patch<OverflowEvent>(`/overflow-events/${encodeURIComponent(id)}`, patch);
}

/** The answer goes into the lists at once; the live frame that follows says the same. */
export function useUpdateOverflowEvent() {
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: OverflowEventPatch }) => updateOverflowEvent(id, patch),
    onSuccess: (event) => storeOverflowEvents([event]),
  });
}
