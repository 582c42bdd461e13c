import { useState } from 'react';
import { Plus } from 'lucide-react';
import type { Interlock } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { useDevices } from '@/features/devices/hooks/use-devices';
import { useDeleteInterlock, useEndBypass, useInterlocks } from '@/features/interlocks/api/interlocks';
import { BypassDialog } from '@/features/interlocks/components/bypass-dialog';
import { InterlockFormDialog } from '@/features/interlocks/components/interlock-form-dialog';
import { InterlockList } from '@/features/interlocks/components/interlock-list';

/** What is open over the screen: at most one dialog. */
type Open = { kind: 'new' } | { kind: 'edit'; interlock: Interlock } | { kind: 'bypass'; interlock: Interlock } | { kind: 'end'; interlock: Interlock } | { kind: 'delete'; interlock: Interlock } | null;

/** 'Enclavamientos' (/interlocks, administrators): the permissives in front of device commands, their bypasses and a test of each. */
export default function InterlocksRoute() {
  const { devices } = useDevices();
  const interlocks = useInterlocks();
  const remove = useDeleteInterlock();
  const endBypass = useEndBypass();
  const [open, setOpen] = useState<Open>(null);
  const name = (id: string) => devices.find((d) => d.id === id)?.name ?? id;
  // The dialogs follow the interlock as frames change it (a bypass ending, another admin's edit).
  const current = (i: Interlock) => interlocks.data?.find((x) => x.id === i.id) ?? i;

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Enclavamientos"
        description="Condiciones que deben cumplirse antes de enviar un comando a un dispositivo, y qué se pide si no se cumplen."
        actions={
          <Button className="w-full sm:w-auto" onClick={() => setOpen({ kind: 'new' })}>
            <Plus aria-hidden="true" />
            Nuevo enclavamiento
          </Button>
        }
      />
      {/* A failed load is an error, never 'No hay enclavamientos definidos.'. */}
      {interlocks.isError && !interlocks.data ? (
        <LoadError message={interlocks.error.message} onRetry={() => void interlocks.refetch()} />
      ) : interlocks.isPending ? (
        <div className="grid gap-4" aria-hidden="true">
          <Skeleton className="h-48" />
          <Skeleton className="h-48" />
        </div>
      ) : (
        <InterlockList
          interlocks={interlocks.data}
          devices={devices}
          actions={{
            onEdit: (interlock) => setOpen({ kind: 'edit', interlock }),
            onBypass: (interlock) => setOpen({ kind: 'bypass', interlock }),
            onEndBypass: (interlock) => setOpen({ kind: 'end', interlock }),
            onDelete: (interlock) => setOpen({ kind: 'delete', interlock }),
          }}
        />
      )}

      {open?.kind === 'new' ? <InterlockFormDialog devices={devices} onClose={() => setOpen(null)} /> : null}
      {open?.kind === 'edit' ? <InterlockFormDialog key={open.interlock.id} interlock={open.interlock} devices={devices} onClose={() => setOpen(null)} /> : null}
      {open?.kind === 'bypass' ? <BypassDialog key={open.interlock.id} interlock={current(open.interlock)} deviceName={name(open.interlock.deviceId)} onClose={() => setOpen(null)} /> : null}
      <ConfirmDialog
        open={open?.kind === 'end'}
        onOpenChange={(o) => (o ? undefined : setOpen(null))}
        title={open?.kind === 'end' ? `¿Terminar la anulación de «${open.interlock.name}»?` : ''}
        description="El enclavamiento vuelve a contar desde ahora: un comando que no cumpla sus condiciones se bloquea o pide lo que diga su modo."
        confirmLabel="Terminar anulación"
        onConfirm={() => {
          if (open?.kind !== 'end') return;
          const { id, name: label } = open.interlock;
          endBypass.mutate(id, {
            onSuccess: () => toast({ title: 'Anulación terminada', description: label, variant: 'success' }),
            onError: (error) => toast({ title: 'No se pudo terminar la anulación', description: error.message, variant: 'destructive' }),
          });
        }}
      />
      <ConfirmDialog
        open={open?.kind === 'delete'}
        onOpenChange={(o) => (o ? undefined : setOpen(null))}
        title={open?.kind === 'delete' ? `¿Eliminar el enclavamiento «${open.interlock.name}»?` : ''}
        description="El comando dejará de comprobar sus condiciones. Queda constancia en la auditoría; la eliminación no se puede deshacer."
        confirmLabel="Eliminar"
        destructive
        onConfirm={() => {
          if (open?.kind !== 'delete') return;
          const { id, name: label } = open.interlock;
          remove.mutate(id, {
            onSuccess: () => toast({ title: 'Enclavamiento eliminado', description: label, variant: 'success' }),
            onError: (error) => toast({ title: 'No se pudo eliminar el enclavamiento', description: error.message, variant: 'destructive' }),
          });
        }}
      />
    </div>
  );
}
