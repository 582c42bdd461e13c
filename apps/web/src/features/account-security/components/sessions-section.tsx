import { useState } from 'react';
import { useNavigate } from 'react-router';
import { LogOut, MonitorSmartphone } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { LoadError } from '@/components/load-error';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { turnPushOff } from '@/features/notifications/api/push-subscription';
import { formatDateTime } from '@/lib/format';
import { useMySessions, useRevokeSession, type AccountSession } from '../api/sessions';
import { describeUserAgent } from '../utils/user-agent';

/**
 * 'Sesiones': where the account is signed in, newest first, and 'Cerrar sesión' on each (with a
 * confirmation). Ending another signs that browser out at once; ending this one signs out here.
 */
export function SessionsSection() {
  const { logout } = useAuth();
  const navigate = useNavigate();
  const sessions = useMySessions();
  const revoke = useRevokeSession();
  const [ending, setEnding] = useState<AccountSession | null>(null);

  async function confirmEnd() {
    const session = ending;
    if (!session) return;
    if (session.current) {
      // As 'Cerrar Sesión' in the menu: this browser's push subscription goes first, while the session can delete it.
      await turnPushOff().catch(() => undefined);
      await logout();
      navigate('/login', { replace: true });
      return;
    }
    revoke.mutate(session.id, {
      onSuccess: () =>
        toast({ title: 'Sesión cerrada', description: `${describeUserAgent(session.userAgent)}${session.address ? ` (${session.address})` : ''} ya no tiene acceso.`, variant: 'success' }),
      onError: (error) => toast({ title: 'No se pudo cerrar la sesión', description: error.message, variant: 'destructive' }),
    });
  }

  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby="sessions-title" className="grid gap-4" data-testid="sessions-section">
        <div>
          <h2 id="sessions-title" className="flex items-center gap-2 text-lg font-semibold">
            <MonitorSmartphone aria-hidden="true" className="size-5 text-primary" />
            Sesiones
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">Los navegadores donde su cuenta tiene la sesión iniciada. Cierre las que no reconozca.</p>
        </div>
        {sessions.isError ? (
          <LoadError message={sessions.error.message} onRetry={() => void sessions.refetch()} />
        ) : sessions.isPending ? (
          <div className="grid gap-3" aria-hidden="true">
            <Skeleton className="h-24" />
            <Skeleton className="h-24" />
          </div>
        ) : (
          <ul className="grid gap-3" aria-label="Sesiones abiertas">
            {sessions.data.map((session) => (
              <SessionItem key={session.id} session={session} onEnd={() => setEnding(session)} />
            ))}
          </ul>
        )}
      </section>
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(open) => {
          if (!open) setEnding(null);
        }}
        title={ending?.current ? '¿Cerrar esta sesión?' : '¿Cerrar la sesión?'}
        description={
          ending
            ? ending.current
              ? 'Saldrá del sistema en este navegador y tendrá que iniciar sesión de nuevo.'
              : `${describeUserAgent(ending.userAgent)}${ending.address ? ` (${ending.address})` : ''} saldrá del sistema al instante y tendrá que iniciar sesión de nuevo.`
            : undefined
        }
        confirmLabel="Cerrar sesión"
        destructive
        onConfirm={() => void confirmEnd()}
      />
    </Card>
  );
}

function SessionItem({ session, onEnd }: { session: AccountSession; onEnd: () => void }) {
  const browser = describeUserAgent(session.userAgent);
  return (
    <li data-testid={`session-${session.id}`} className="flex flex-col gap-3 rounded-lg border p-4 @2xl:flex-row @2xl:items-center">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-semibold" title={session.userAgent ?? undefined}>
            {browser}
          </span>
          {session.current ? <Badge tone="primary">Esta sesión</Badge> : null}
        </p>
        <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
          <div className="flex gap-1.5 sm:block">
            <dt className="text-muted-foreground sm:text-xs">Inicio</dt>
            <dd>{formatDateTime(session.createdAt)}</dd>
          </div>
          <div className="flex gap-1.5 sm:block">
            <dt className="text-muted-foreground sm:text-xs">Última actividad</dt>
            <dd>{formatDateTime(session.lastSeenAt)}</dd>
          </div>
          <div className="flex gap-1.5 sm:block">
            <dt className="text-muted-foreground sm:text-xs">Dirección</dt>
            <dd className="break-all">{session.address ?? '—'}</dd>
          </div>
        </dl>
      </div>
      <Button
        variant="outline"
        size="sm"
        className="w-fit @2xl:shrink-0"
        onClick={onEnd}
        aria-label={session.current ? 'Cerrar sesión en este navegador' : `Cerrar sesión de ${browser}${session.address ? ` (${session.address})` : ''}`}
      >
        <LogOut aria-hidden="true" />
        Cerrar sesión
      </Button>
    </li>
  );
}
