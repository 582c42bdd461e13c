import { useState } from 'react';
import { Plus } from 'lucide-react';
import { can, type Device, type Schedule } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { LoadError } from '@/components/load-error';
import { useInstallationTimeZone } from '@/features/auth/api/get-config';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useDeleteSchedule, useGateSchedules, useUpdateSchedule } from '../api/schedules';
import { useNextRunRefresh } from '../hooks/use-next-run-refresh';
import { ScheduleCard } from './schedule-card';
import { ScheduleFormDialog } from './schedule-form-dialog';

/** What is open over the panel: at most one form; an edit follows the schedule by id, so it shows what the list holds. */
type Open = { kind: 'new' } | { kind: 'edit'; id: string } | null;

/**
 * 'Programación' of a gate (docs/control.md "Gate schedules"): its schedules for everyone who
 * reads; creating, editing, enabling and deleting them for admins (manage_devices).
 */
export function GateSchedules({ device }: { device: Device }) {
  const { user } = useAuth();
  const canManage = can(user, 'manage_devices');
  const schedules = useGateSchedules(device.id);
  const installationZone = useInstallationTimeZone();
  const update = useUpdateSchedule();
  const remove = useDeleteSchedule();
  const [open, setOpen] = useState<Open>(null);
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  useNextRunRefresh(device.id, schedules.data);

  const list = schedules.data ?? [];
  // Every schedule carries the installation's zone; before there is one, the configuration says it.
  const timeZone = list[0]?.timezone ?? installationZone;
  const editing = open?.kind === 'edit' ? list.find((s) => s.id === open.id) : undefined;

  const toggle = (s: Schedule) =>
    update.mutate(
      { id: s.id, patch: { enabled: !s.enabled } },
      {
        onSuccess: (saved) => toast({ title: saved.enabled ? 'Programación activada' : 'Programación desactivada', description: saved.name, variant: 'success' }),
        onError: (error) => toast({ title: 'No se pudo cambiar la programación', description: error.message, variant: 'destructive' }),
      },
    );
  const confirmDelete = () => {
    if (!deleting) return;
    const { id, name } = deleting;
    remove.mutate(id, {
      onSuccess: () => toast({ title: 'Programación eliminada', description: name, variant: 'success' }),
      onError: (error) => toast({ title: 'No se pudo eliminar la programación', description: error.message, variant: 'destructive' }),
    });
  };

  return (
    <div className="grid gap-3" data-testid="gate-schedules">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-muted-foreground">{timeZone ? `Horas de la instalación (${timeZone}).` : 'Horas de la instalación.'}</p>
        {canManage ? (
          <Button size="sm" onClick={() => setOpen({ kind: 'new' })}>
            <Plus aria-hidden="true" />
            Nueva programación
          </Button>
        ) : null}
      </div>

      {schedules.isError && !schedules.data ? (
        <LoadError message={schedules.error.message} onRetry={() => void schedules.refetch()} />
      ) : !schedules.data ? (
        <div className="grid gap-2" aria-hidden="true">
          <Skeleton className="h-28" />
        </div>
      ) : list.length === 0 ? (
        <p data-testid="schedules-empty" className="text-sm text-muted-foreground">
          Esta compuerta no tiene programaciones.
        </p>
      ) : (
        <ul className="grid gap-3" aria-label={`Programaciones de ${device.name}`}>
          {list.map((s) => (
            <ScheduleCard
              key={s.id}
              schedule={s}
              device={device}
              onEdit={canManage ? () => setOpen({ kind: 'edit', id: s.id }) : undefined}
              onToggle={canManage ? () => toggle(s) : undefined}
              onDelete={canManage ? () => setDeleting(s) : undefined}
              toggling={update.isPending && update.variables?.id === s.id}
            />
          ))}
        </ul>
      )}

      {canManage && (open?.kind === 'new' || editing) ? (
        <ScheduleFormDialog
          device={device}
          schedule={editing}
          timeZone={timeZone}
          onCreated={(saved) => setOpen({ kind: 'edit', id: saved.id })}
          onClose={() => setOpen(null)}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => {
          if (!o) setDeleting(null);
        }}
        title="¿Eliminar programación?"
        description={
          deleting
            ? `«${deleting.name}» dejará de ejecutarse; si mantiene la compuerta abierta hasta su cierre, ese cierre se cancela. Sus ejecuciones dejan de mostrarse aquí (quedan en la auditoría).`
            : undefined
        }
        confirmLabel="Eliminar"
        destructive
        onConfirm={confirmDelete}
      />
    </div>
  );
}
