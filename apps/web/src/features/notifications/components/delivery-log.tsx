import { useState } from 'react';
import type { Delivery, DeliveryState } from '@agua/shared';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime, formatTime } from '@/lib/format';
import { useDeliveries } from '../api/deliveries';
import { CHANNEL_LABELS, DELIVERY_EVENT_LABELS, DELIVERY_STATE_FILTERS, DELIVERY_STATE_LABELS } from '../utils/notification-labels';
import { LoadError } from '@/components/load-error';
import { SectionTitle } from './section';

const HEADERS = ['Fecha y hora', 'Evento', 'Destinatario', 'Título', 'Estado e intentos', 'Último error'];

/** 'Registro de envíos': every notification, newest first, refreshed while the screen is open. */
export function DeliveryLog() {
  const [state, setState] = useState<DeliveryState | ''>('');
  const deliveries = useDeliveries(state || null);
  const items = deliveries.data?.pages.flatMap((p) => p.items ?? []) ?? [];

  return (
    <Card role="region" aria-labelledby="deliveries-title" data-testid="delivery-log">
      <CardHeader className="gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <SectionTitle id="deliveries-title">Registro de envíos</SectionTitle>
          <CardDescription>Cada aviso enviado o por enviar, con sus intentos. Se actualiza cada 5 segundos.</CardDescription>
        </div>
        <div className="grid gap-2 sm:w-48">
          <Label htmlFor="delivery-state">Estado</Label>
          <NativeSelect id="delivery-state" value={state} onChange={(e) => setState(e.target.value as DeliveryState | '')}>
            {DELIVERY_STATE_FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </NativeSelect>
        </div>
      </CardHeader>
      <CardContent>
        {deliveries.isError && !deliveries.data ? (
          <LoadError message={deliveries.error.message} onRetry={() => void deliveries.refetch()} />
        ) : deliveries.isPending ? (
          <div className="grid gap-2" aria-hidden="true">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="h-12" />
            ))}
          </div>
        ) : (
          <div className={deliveries.isPlaceholderData ? 'grid gap-4 opacity-60 transition-opacity' : 'grid gap-4'} aria-busy={deliveries.isFetching}>
            <DeliveryList deliveries={items} filtered={state !== ''} />
            {deliveries.hasNextPage ? (
              <Button variant="outline" className="justify-self-center" onClick={() => void deliveries.fetchNextPage()} disabled={deliveries.isFetchingNextPage}>
                {deliveries.isFetchingNextPage ? <Spinner /> : null}
                Cargar más
              </Button>
            ) : null}
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function DeliveryTime({ at }: { at: string }) {
  return (
    <time dateTime={at} className="tabular-nums">
      {formatDateTime(at)}
    </time>
  );
}

function StateBadge({ state }: { state: DeliveryState }) {
  const s = DELIVERY_STATE_LABELS[state] ?? { label: state, tone: 'neutral' as const };
  return <Badge tone={s.tone}>{s.label}</Badge>;
}

/** When a pending delivery tries again (retries back off from 1 s to 15 min). */
function NextAttempt({ delivery }: { delivery: Delivery }) {
  if (delivery.state !== 'pending' || !delivery.nextAttemptAt) return null;
  return (
    <span className="text-muted-foreground">
      próximo <time dateTime={delivery.nextAttemptAt}>{formatTime(delivery.nextAttemptAt)}</time>
    </span>
  );
}

const attemptsText = (n: number) => `${n} ${n === 1 ? 'intento' : 'intentos'}`;

function LastError({ error }: { error: string | null }) {
  if (!error) return <span className="text-muted-foreground">—</span>;
  return <span className="text-xs break-words text-muted-foreground">{error}</span>;
}

/** Hooks for tests and for reading the DOM: which delivery a row shows. */
const rowData = (d: Delivery) => ({
  'data-testid': 'delivery-row',
  'data-delivery-id': d.id,
  'data-state': d.state,
  'data-attempts': d.attempts,
});

/** The log: a table on wide screens, one card per delivery on narrow ones (no sideways scrolling). */
function DeliveryList({ deliveries, filtered }: { deliveries: Delivery[]; filtered: boolean }) {
  if (deliveries.length === 0) {
    return (
      <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
        {filtered ? 'No hay envíos en este estado.' : 'Aún no se ha enviado ninguna notificación.'}
      </p>
    );
  }
  return (
    <>
      <div className="hidden overflow-hidden rounded-lg border @4xl:block">
        <table className="w-full table-fixed text-sm">
          <colgroup>
            <col className="w-[10.5rem]" />
            <col className="w-[7rem]" />
            <col />
            <col />
            <col className="w-[9rem]" />
            <col />
          </colgroup>
          <thead className="border-b bg-muted/50 text-left text-xs text-muted-foreground">
            <tr>
              {HEADERS.map((h) => (
                <th key={h} scope="col" className="px-3 py-2.5 font-medium">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y">
            {deliveries.map((d) => (
              <tr key={d.id} className="align-top" {...rowData(d)}>
                <td className="px-3 py-2.5 text-xs text-muted-foreground">
                  <DeliveryTime at={d.createdAt} />
                </td>
                <td className="px-3 py-2.5">
                  <span className="block font-medium">{DELIVERY_EVENT_LABELS[d.event] ?? d.event}</span>
                  <span className="block text-xs text-muted-foreground">{CHANNEL_LABELS[d.channel] ?? d.channel}</span>
                </td>
                <td className="px-3 py-2.5 break-words">{d.recipient.label}</td>
                <td className="px-3 py-2.5 break-words">{d.title}</td>
                <td className="px-3 py-2.5">
                  <StateBadge state={d.state} />
                  <span className="mt-1 block text-xs tabular-nums">{attemptsText(d.attempts)}</span>
                  <span className="block text-xs tabular-nums">
                    <NextAttempt delivery={d} />
                  </span>
                </td>
                <td className="px-3 py-2.5">
                  <LastError error={d.lastError} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <ol className="grid gap-2 @4xl:hidden">
        {deliveries.map((d) => (
          <li key={d.id} className="grid gap-2 rounded-lg border p-3 text-sm" {...rowData(d)}>
            <div className="flex items-start justify-between gap-2">
              <span className="min-w-0 font-medium break-words">{d.title}</span>
              <StateBadge state={d.state} />
            </div>
            <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-xs text-muted-foreground">
              <DeliveryTime at={d.createdAt} />
              <span>
                {DELIVERY_EVENT_LABELS[d.event] ?? d.event} · {CHANNEL_LABELS[d.channel] ?? d.channel}
              </span>
            </div>
            <dl className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-x-2 gap-y-1.5">
              <dt className="text-xs text-muted-foreground">Destinatario</dt>
              <dd className="min-w-0 break-words">{d.recipient.label}</dd>
              <dt className="text-xs text-muted-foreground">Intentos</dt>
              <dd className="tabular-nums">
                {d.attempts}
                {d.state === 'pending' && d.nextAttemptAt ? (
                  <>
                    {' · '}
                    <NextAttempt delivery={d} />
                  </>
                ) : null}
              </dd>
              {d.lastError ? (
                <>
                  <dt className="text-xs text-muted-foreground">Último error</dt>
                  <dd className="min-w-0">
                    <LastError error={d.lastError} />
                  </dd>
                </>
              ) : null}
            </dl>
          </li>
        ))}
      </ol>
    </>
  );
}
