import { CircleCheck, CircleSlash, CircleX, Clock, Hourglass, Replace } from 'lucide-react';
import type { Command } from '@agua/shared';

import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import { commandLabel } from '@agua/shared';

/** What the device did with the last command, in the words operators expect. */
export function commandProgressText(command: Command): string {
  switch (command.status) {
    case 'pending':
    case 'delivered':
      return 'Enviado…';
    case 'succeeded':
      return 'Confirmado por el dispositivo';
    case 'failed':
      return `Falló: ${command.message ?? 'sin detalle'}`;
    case 'timed_out':
      return 'Sin respuesta';
    case 'superseded':
      return 'Reemplazado por otro comando';
    case 'awaiting_approval':
      return 'En espera de aprobación';
    case 'rejected':
      return command.message ? `Rechazado: ${command.message}` : 'Rechazado';
    case 'expired':
      return 'Caducado: nadie lo aprobó a tiempo';
    default:
      return command.status;
  }
}

export function CommandProgress({ command, className }: { command: Command; className?: string }) {
  const icon = (() => {
    switch (command.status) {
      case 'pending':
      case 'delivered':
        return <Spinner className="size-3.5" />;
      case 'succeeded':
        return <CircleCheck aria-hidden="true" className="size-3.5 text-ok" />;
      case 'failed':
        return <CircleX aria-hidden="true" className="size-3.5 text-crit" />;
      case 'timed_out':
        return <Clock aria-hidden="true" className="size-3.5 text-warn-fg" />;
      case 'superseded':
        return <Replace aria-hidden="true" className="size-3.5 text-muted-foreground" />;
      case 'awaiting_approval':
        return <Hourglass aria-hidden="true" className="size-3.5 text-warn-fg" />;
      case 'rejected':
      case 'expired':
        return <CircleSlash aria-hidden="true" className="size-3.5 text-muted-foreground" />;
      default:
        return null;
    }
  })();
  return (
    <p role="status" aria-live="polite" className={cn('flex min-w-0 items-center gap-1.5 text-xs text-muted-foreground', className)}>
      {icon}
      <span className="font-medium text-foreground">{commandLabel(command.command)}</span>
      <span aria-hidden="true">·</span>
      <span className="truncate">{commandProgressText(command)}</span>
    </p>
  );
}
