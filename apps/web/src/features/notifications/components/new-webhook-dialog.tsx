import { useState, type FormEvent, type ReactNode } from 'react';
import { Plus } from 'lucide-react';
import { DEFAULT_WEBHOOK_MIN_PRIORITY, WEBHOOK_FORMATS, type WebhookFormat } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { fieldAria, focusFirstError, showSubmitError, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { useCreateWebhook, type WebhookCreated } from '../api/webhooks';
import { PRIORITIES, WEBHOOK_FORMAT_LABELS, priorityOptionLabel } from '../utils/notification-labels';
import { validateWebhook, type WebhookFieldErrors } from '../utils/validate-webhook';
import { fieldOfWebhookError } from '../utils/webhook-errors';
import { WebhookSecretResult } from './webhook-secret-result';

const ID = 'new-webhook';
const FIELD_ORDER = ['name', 'url', 'format', 'chatId', 'minPriority'] as const;
const URL_HINT = 'La dirección que recibe los avisos por POST: http:// o https://.';
const FORMAT_HINTS: Record<WebhookFormat, ReactNode> = {
  generic: 'JSON propio del panel, firmado: para sistemas que lo integren.',
  slack: 'Un «Incoming Webhook» de Slack (o compatible, como Mattermost).',
  telegram: (
    <>
      La API sendMessage de un bot: <span className="font-mono break-all">https://api.telegram.org/bot&lt;token&gt;/sendMessage</span>
    </>
  ),
};
const CHAT_HINT = 'El chat_id del grupo o de la persona que recibe los avisos.';
const PRIORITY_HINT = 'Recibe las alarmas de esta prioridad o más graves.';

/** 'Nuevo webhook': the button and its dialog. The form remounts on every opening. */
export function NewWebhookDialog() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button className="w-full sm:w-auto">
          <Plus aria-hidden="true" />
          Nuevo webhook
        </Button>
      </DialogTrigger>
      <DialogContent
        data-testid="new-webhook-dialog"
        className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto"
        // A stray click beside the dialog must not lose a half-typed form or the only view of the secret.
        onInteractOutside={(e) => e.preventDefault()}
      >
        <NewWebhookForm onClose={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

function NewWebhookForm({ onClose }: { onClose: () => void }) {
  const mutation = useCreateWebhook();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [format, setFormat] = useState<WebhookFormat>('generic');
  const [chatId, setChatId] = useState('');
  const [minPriority, setMinPriority] = useState(String(DEFAULT_WEBHOOK_MIN_PRIORITY));
  const [errors, setErrors] = useState<WebhookFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<WebhookCreated | null>(null);

  const clear = (field: keyof WebhookFieldErrors) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const checked = validateWebhook({ name, url, format, chatId, minPriority });
    if ('errors' in checked) {
      setErrors(checked.errors);
      return focusFirstError(ID, FIELD_ORDER, checked.errors);
    }
    setErrors({});
    try {
      setCreated(await mutation.mutateAsync(checked.body));
    } catch (error) {
      showSubmitError(error, fieldOfWebhookError(error), { prefix: ID, order: FIELD_ORDER, setErrors, setFormError });
    }
  }

  if (created) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Webhook creado</DialogTitle>
          <DialogDescription>
            {created.name} ya recibe los avisos de alarmas. Configure el secreto en el receptor para comprobar la firma.
          </DialogDescription>
        </DialogHeader>
        <WebhookSecretResult name={created.name} secret={created.secret} />
        <DialogFooter>
          <Button onClick={onClose}>He guardado el secreto</Button>
        </DialogFooter>
      </>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-busy={mutation.isPending}>
      <DialogHeader>
        <DialogTitle>Nuevo webhook</DialogTitle>
        <DialogDescription>Un sistema externo (Slack, Telegram o el suyo propio) que recibe los avisos de alarmas.</DialogDescription>
      </DialogHeader>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id={`${ID}-name`} label="Nombre" error={errors.name} className="sm:col-span-2">
          <Input
            {...fieldAria(`${ID}-name`, { error: errors.name })}
            autoComplete="off"
            maxLength={100}
            placeholder="Guardia de mantenimiento"
            value={name}
            onChange={(e) => (setName(e.target.value), clear('name'))}
          />
        </FormField>
        <FormField id={`${ID}-url`} label="URL" hint={URL_HINT} error={errors.url} className="sm:col-span-2">
          <Input
            {...fieldAria(`${ID}-url`, { hint: URL_HINT, error: errors.url })}
            type="url"
            inputMode="url"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            placeholder="https://"
            className="font-mono"
            value={url}
            onChange={(e) => (setUrl(e.target.value), clear('url'))}
          />
        </FormField>
        <FormField id={`${ID}-format`} label="Formato" hint={FORMAT_HINTS[format]} error={errors.format}>
          <NativeSelect
            {...fieldAria(`${ID}-format`, { hint: true, error: errors.format })}
            value={format}
            onChange={(e) => (setFormat(e.target.value as WebhookFormat), clear('format'), clear('chatId'))}
          >
            {WEBHOOK_FORMATS.map((f) => (
              <option key={f} value={f}>
                {WEBHOOK_FORMAT_LABELS[f]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id={`${ID}-minPriority`} label="Prioridad mínima" hint={PRIORITY_HINT} error={errors.minPriority}>
          <NativeSelect
            {...fieldAria(`${ID}-minPriority`, { hint: PRIORITY_HINT, error: errors.minPriority })}
            value={minPriority}
            onChange={(e) => (setMinPriority(e.target.value), clear('minPriority'))}
          >
            {PRIORITIES.map((p) => (
              <option key={p} value={String(p)}>
                {priorityOptionLabel(p)}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        {format === 'telegram' ? (
          <FormField id={`${ID}-chatId`} label="Chat de Telegram" hint={CHAT_HINT} error={errors.chatId} className="sm:col-span-2">
            <Input
              {...fieldAria(`${ID}-chatId`, { hint: CHAT_HINT, error: errors.chatId })}
              autoComplete="off"
              spellCheck={false}
              maxLength={100}
              placeholder="-1001234567890"
              className="font-mono"
              value={chatId}
              onChange={(e) => (setChatId(e.target.value), clear('chatId'))}
            />
          </FormField>
        ) : null}
      </div>
      <FormDialogFooter
        error={formError}
        pending={mutation.isPending}
        onCancel={onClose}
        icon={<Plus aria-hidden="true" />}
        label="Crear webhook"
        pendingLabel="Creando..."
      />
    </form>
  );
}
