import { FileSpreadsheet } from 'lucide-react';
import { UI_TEXTS } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { isApiError } from '@/lib/api-client';
import { useExportHistory } from '../api/export-history';

/** 'Exportar a Excel': the server builds the workbook from stored history. */
export function ExportButton() {
  const mutation = useExportHistory();
  function onClick() {
    mutation.mutate(undefined, {
      onSuccess: () => toast({ title: UI_TEXTS.exportSuccessTitle, description: UI_TEXTS.exportSuccessDescription, variant: 'success' }),
      onError: (error) => {
        if (isApiError(error) && error.status === 404 && error.code === 'NO_DATA') {
          toast({ title: UI_TEXTS.exportNoDataTitle, description: error.message });
        } else {
          toast({ title: UI_TEXTS.exportErrorTitle, description: UI_TEXTS.exportErrorDescription, variant: 'destructive' });
        }
      },
    });
  }
  return (
    <Button onClick={onClick} disabled={mutation.isPending} className="w-full sm:w-auto">
      {mutation.isPending ? <Spinner /> : <FileSpreadsheet aria-hidden="true" />}
      Exportar a Excel
    </Button>
  );
}
