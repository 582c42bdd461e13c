import { COMMAND_STATUS_LABELS, commandLabel, type Command, type CommandStatus } from '@agua/shared';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';

import { RelativeTime } from '@/components/device/relative-time';
import { useDeviceCommands } from '../api/get-device-commands';

const STATUS_TONES: Record<CommandStatus, BadgeProps['tone']> = {
  pending: 'primary',
  delivered: 'primary',
  succeeded: 'ok',
  failed: 'crit',
  timed_out: 'warn',
  superseded: 'outline',
  awaiting_approval: 'warn',
  rejected: 'outline',
  expired: 'outline',
};

export function CommandStatusBadge({ command }: { command: Command }) {
  return <Badge tone={STATUS_TONES[command.status] ?? 'neutral'}>{COMMAND_STATUS_LABELS[command.status] ?? command.status}</Badge>;
}

/** The device's last 20 commands: what, result, who, when. */
export function DeviceCommandHistory({ deviceId }: { deviceId: string }) {
  const query = useDeviceCommands(deviceId);
  if (query.isPending) {
    return (
      <div className="grid gap-2" aria-hidden="true">
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
      </div>
    );
  }
  if (query.isError) return <p className="text-sm text-muted-foreground">No se pudo cargar el historial de comandos.</p>;
  const items = query.data.items;
  if (items.length === 0) return <p className="text-sm text-muted-foreground">Sin comandos registrados.</p>;
  return (
    <ol className="divide-y rounded-lg border">
      {items.map((command) => (
        <li key={command.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-3 py-2 text-sm">
          <span className="flex min-w-0 items-center gap-2">
            <span className="font-medium">{commandLabel(command.command)}</span>
            <CommandStatusBadge command={command} />
          </span>
          <span className="text-xs text-muted-foreground">
            {command.issuedBy?.name ?? 'Sistema'} · <RelativeTime value={command.issuedAt} />
          </span>
          {command.status === 'failed' && command.message ? <p className="w-full text-xs text-crit-fg">{command.message}</p> : null}
          {command.comment ? <p className="w-full text-xs break-words text-muted-foreground">Comentario: {command.comment}</p> : null}
          {command.approvedBy ? <p className="w-full text-xs text-muted-foreground">Aprobado por {command.approvedBy.name}</p> : null}
          {command.status === 'rejected' && command.message ? <p className="w-full text-xs break-words text-muted-foreground">Motivo del rechazo: {command.message}</p> : null}
        </li>
      ))}
    </ol>
  );
}
