import { useState } from 'react';
import { Power, PowerOff, Send, Trash2 } from 'lucide-react';
import type { Webhook } from '@agua/shared';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { useDeleteWebhook, useTestWebhook, useUpdateWebhook, useWebhooks } from '../api/webhooks';
import { WEBHOOK_FORMAT_LABELS, priorityReachLabel } from '../utils/notification-labels';
import { NewWebhookDialog } from './new-webhook-dialog';
import { LoadError } from '@/components/load-error';
import { SectionTitle } from './section';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** 'Webhooks': the list, 'Nuevo webhook', and per webhook a test, on/off and delete. */
export function WebhooksCard() {
  const webhooks = useWebhooks();
  const test = useTestWebhook();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const [deleting, setDeleting] = useState<Webhook | null>(null);

  const sendTest = (w: Webhook) =>
    test.mutate(w.id, {
      onSuccess: () => toast({ title: 'Prueba enviada', description: `${w.name}: aparecerá en el registro de envíos.`, variant: 'success' }),
      onError: (error) => toast({ title: 'No se pudo enviar la prueba', description: errorText(error), variant: 'destructive' }),
    });

  const toggle = (w: Webhook) =>
    update.mutate(
      { id: w.id, changes: { enabled: !w.enabled } },
      {
        onSuccess: (next) =>
          toast({
            title: next.enabled ? 'Webhook activado' : 'Webhook desactivado',
            description: next.enabled ? `${next.name} vuelve a recibir los avisos.` : `${next.name} deja de recibir avisos hasta que lo active.`,
            variant: 'success',
          }),
        onError: (error) => toast({ title: 'No se pudo cambiar el webhook', description: errorText(error), variant: 'destructive' }),
      },
    );

  const confirmDelete = () => {
    if (!deleting) return;
    const { id, name } = deleting;
    remove.mutate(id, {
      onSuccess: () => toast({ title: 'Webhook eliminado', description: `${name} ya no recibe avisos.`, variant: 'success' }),
      onError: (error) => toast({ title: 'No se pudo eliminar el webhook', description: errorText(error), variant: 'destructive' }),
    });
  };

  const list = webhooks.data ?? [];
  return (
    <Card role="region" aria-labelledby="webhooks-title" data-testid="webhooks-card">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1">
          <SectionTitle id="webhooks-title">Webhooks</SectionTitle>
          <CardDescription>Sistemas externos que reciben los avisos de alarmas: Slack, Telegram o JSON firmado.</CardDescription>
        </div>
        <NewWebhookDialog />
      </CardHeader>
      <CardContent>
        {webhooks.isError && !webhooks.data ? (
          <LoadError message={webhooks.error.message} onRetry={() => void webhooks.refetch()} />
        ) : webhooks.isPending ? (
          <div className="grid gap-2" aria-hidden="true">
            <Skeleton className="h-20" />
            <Skeleton className="h-20" />
          </div>
        ) : list.length === 0 ? (
          <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
            Aún no hay webhooks. Cree uno para avisar a Slack, Telegram u otro sistema.
          </p>
        ) : (
          <ul className="grid gap-2" aria-label="Lista de webhooks">
            {list.map((w) => (
              <li
                key={w.id}
                data-testid={`webhook-row-${w.id}`}
                className="flex flex-col gap-3 rounded-lg border bg-card p-3 sm:p-4 @3xl:flex-row @3xl:items-center"
              >
                <div className="grid min-w-0 flex-1 gap-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold break-words">{w.name}</span>
                    <Badge tone="outline">{WEBHOOK_FORMAT_LABELS[w.format]}</Badge>
                    <Badge tone={w.enabled ? 'ok' : 'off'}>
                      <span aria-hidden="true" className={w.enabled ? 'size-2 rounded-full bg-ok' : 'size-2 rounded-full bg-off'} />
                      {w.enabled ? 'Activo' : 'Desactivado'}
                    </Badge>
                  </p>
                  <p className="font-mono text-xs break-all text-muted-foreground">{w.url}</p>
                  <p className="text-xs text-muted-foreground">
                    Avisa de: <span className="text-foreground">{priorityReachLabel(w.minPriority)}</span>
                    {w.format === 'telegram' && w.chatId ? (
                      <>
                        {' · '}Chat <span className="font-mono">{w.chatId}</span>
                      </>
                    ) : null}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2 @3xl:shrink-0 @3xl:justify-end">
                  <Button variant="outline" size="sm" onClick={() => sendTest(w)} disabled={test.isPending && test.variables === w.id} aria-label={`Enviar prueba a ${w.name}`}>
                    {test.isPending && test.variables === w.id ? <Spinner /> : <Send aria-hidden="true" />}
                    Enviar prueba
                  </Button>
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => toggle(w)}
                    disabled={update.isPending && update.variables?.id === w.id}
                    aria-label={`${w.enabled ? 'Desactivar' : 'Activar'} ${w.name}`}
                  >
                    {w.enabled ? <PowerOff aria-hidden="true" /> : <Power aria-hidden="true" />}
                    {w.enabled ? 'Desactivar' : 'Activar'}
                  </Button>
                  <Button variant="outline" size="sm" className="text-crit-fg" onClick={() => setDeleting(w)} aria-label={`Eliminar ${w.name}`}>
                    <Trash2 aria-hidden="true" />
                    Eliminar
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        title="¿Eliminar webhook?"
        description={deleting ? `${deleting.name} dejará de recibir avisos de alarmas y su secreto dejará de valer. Esta acción no se puede deshacer.` : undefined}
        confirmLabel="Eliminar"
        destructive
        onConfirm={confirmDelete}
      />
    </Card>
  );
}
