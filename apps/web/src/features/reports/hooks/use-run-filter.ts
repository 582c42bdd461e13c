import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import type { ReportRunFilters } from '@/lib/report-run-cache';

/** The run list's report filter, kept in the URL (`?reportId=`) so that the view can be shared or reloaded. */
export function useRunFilter() {
  const [params, setParams] = useSearchParams();
  const reportId = params.get('reportId') ?? '';
  const filters: ReportRunFilters = reportId ? { reportId } : {};

  const setReportId = useCallback(
    (id: string) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (id) next.set('reportId', id);
          else next.delete('reportId');
          return next;
        },
        // A filter change replaces the entry: Back leaves the screen instead of undoing it.
        { replace: true },
      );
    },
    [setParams],
  );
  return { reportId, filters, setReportId };
}
