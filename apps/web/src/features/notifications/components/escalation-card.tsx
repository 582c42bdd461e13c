import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Mail, Save } from 'lucide-react';
import { ALARM_PRIORITY_LABELS, type EscalationPolicy, type User, type Webhook } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormAlert } from '@/components/ui/form-alert';
import { FieldMessages, fieldAria, focusFirstError, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/utils';
import { useEscalation, useSaveEscalation, useTestEmail } from '../api/escalation';
import { useWebhooks } from '../api/webhooks';
import { PRIORITIES, WEBHOOK_FORMAT_LABELS } from '../utils/notification-labels';
import { toEscalationForm, validateEscalation, type EscalationFieldErrors, type EscalationFormValues } from '../utils/validate-escalation';
import { LoadError } from '@/components/load-error';
import { SectionTitle } from './section';

const ID = 'escalation';
const FIELD_ORDER = ['maxPriority', 'afterMin', 'repeatMin', 'userIds', 'webhookIds'] as const;
const PRIORITY_HINT = 'Se escalan las alarmas de esta prioridad o más graves.';
const AFTER_HINT = 'Desde que salta la alarma, de 1 a 1440.';
const REPEAT_HINT = 'Vacío: se avisa una sola vez.';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface EscalationCardProps {
  /** Everyone the policy may name: the users list (the route loads it; inactive ones are left out). */
  users: { data: User[] | undefined; error: Error | null; retry: () => void };
}

/** 'Escalada': who else is told when an alarm stays unacknowledged, and a test e-mail. */
export function EscalationCard({ users }: EscalationCardProps) {
  const escalation = useEscalation();
  const webhooks = useWebhooks();
  const testEmail = useTestEmail();

  const sendTestEmail = () =>
    testEmail.mutate(undefined, {
      onSuccess: () => toast({ title: 'Correo de prueba enviado', description: 'Llegará a la dirección de su cuenta en unos segundos.', variant: 'success' }),
      // 409 CHANNEL_NOT_CONFIGURED when the server has no SMTP: its message says so.
      onError: (error) => toast({ title: 'No se pudo enviar el correo de prueba', description: errorText(error), variant: 'destructive' }),
    });

  const testEmailButton = (
    <Button variant="outline" onClick={sendTestEmail} disabled={testEmail.isPending}>
      {testEmail.isPending ? <Spinner /> : <Mail aria-hidden="true" />}
      Enviar correo de prueba
    </Button>
  );

  return (
    <Card role="region" aria-labelledby="escalation-title" data-testid="escalation-card">
      <CardHeader>
        <SectionTitle id="escalation-title">Escalada</SectionTitle>
        <CardDescription>Si una alarma sigue sin reconocer, avisa además a estas personas (por correo y push) y webhooks.</CardDescription>
      </CardHeader>
      <CardContent>
        {escalation.isError && !escalation.data ? (
          <LoadError message={escalation.error.message} onRetry={() => void escalation.refetch()} />
        ) : escalation.data ? (
          // Remounted when the saved policy changes elsewhere: the form starts from what the server holds.
          <EscalationForm key={JSON.stringify(escalation.data)} policy={escalation.data} users={users} webhooks={webhooks} extraAction={testEmailButton} />
        ) : (
          <div className="grid gap-3" aria-hidden="true">
            <Skeleton className="h-16" />
            <Skeleton className="h-32" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

interface EscalationFormProps {
  policy: EscalationPolicy;
  users: EscalationCardProps['users'];
  webhooks: ReturnType<typeof useWebhooks>;
  extraAction: ReactNode;
}

function EscalationForm({ policy, users, webhooks, extraAction }: EscalationFormProps) {
  const save = useSaveEscalation();
  const [values, setValues] = useState<EscalationFormValues>(() => toEscalationForm(policy));
  const [errors, setErrors] = useState<EscalationFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const activeUsers = useMemo(() => (users.data ?? []).filter((u) => u.status === 'active'), [users.data]);
  const ready = users.data !== undefined && webhooks.data !== undefined;

  const set = <K extends keyof EscalationFormValues>(field: K, value: EscalationFormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };
  const toggle = (field: 'userIds' | 'webhookIds', id: string) =>
    set(field, values[field].includes(id) ? values[field].filter((x) => x !== id) : [...values[field], id]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    // Until both lists are in, a target could not be told from a deleted one.
    if (!ready) return;
    const checked = validateEscalation(values, { userIds: new Set(activeUsers.map((u) => u.id)), webhookIds: new Set(webhooks.data.map((w) => w.id)) });
    if ('errors' in checked) {
      setErrors(checked.errors);
      return focusFirstError(ID, FIELD_ORDER, checked.errors);
    }
    save.mutate(checked.policy, {
      onSuccess: () => toast({ title: 'Escalada guardada', variant: 'success' }),
      onError: (error) => setFormError(errorText(error)),
    });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-busy={save.isPending}>
      <div className="grid gap-4 @2xl:grid-cols-3">
        <FormField id={`${ID}-maxPriority`} label="Prioridad hasta" hint={PRIORITY_HINT} error={errors.maxPriority}>
          <NativeSelect {...fieldAria(`${ID}-maxPriority`, { hint: PRIORITY_HINT, error: errors.maxPriority })} value={values.maxPriority} onChange={(e) => set('maxPriority', e.target.value)}>
            {PRIORITIES.map((p) => (
              <option key={p} value={String(p)}>
                {ALARM_PRIORITY_LABELS[p]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id={`${ID}-afterMin`} label="Minutos sin reconocer" hint={AFTER_HINT} error={errors.afterMin}>
          <Input
            {...fieldAria(`${ID}-afterMin`, { hint: AFTER_HINT, error: errors.afterMin })}
            type="number"
            inputMode="numeric"
            min={1}
            max={1440}
            step={1}
            className="tabular-nums"
            value={values.afterMin}
            onChange={(e) => set('afterMin', e.target.value)}
          />
        </FormField>
        <FormField id={`${ID}-repeatMin`} label="Repetir cada (minutos)" hint={REPEAT_HINT} error={errors.repeatMin}>
          <Input
            {...fieldAria(`${ID}-repeatMin`, { hint: REPEAT_HINT, error: errors.repeatMin })}
            type="number"
            inputMode="numeric"
            min={1}
            max={1440}
            step={1}
            placeholder="Sin repetir"
            className="tabular-nums"
            value={values.repeatMin}
            onChange={(e) => set('repeatMin', e.target.value)}
          />
        </FormField>
      </div>

      <div className="grid gap-4 @3xl:grid-cols-2">
        <TargetList
          id={`${ID}-userIds`}
          legend="Avisar a usuarios"
          error={errors.userIds}
          loading={users.data === undefined && !users.error}
          loadError={users.error ? <LoadError message={users.error.message} onRetry={users.retry} /> : null}
          empty="No hay usuarios activos."
          items={activeUsers.map((u) => ({ id: u.id, name: u.name, detail: `@${u.username} · ${u.email}` }))}
          checked={values.userIds}
          onToggle={(id) => toggle('userIds', id)}
        />
        <TargetList
          id={`${ID}-webhookIds`}
          legend="Avisar a webhooks"
          error={errors.webhookIds}
          loading={webhooks.isPending}
          loadError={webhooks.isError && !webhooks.data ? <LoadError message={webhooks.error.message} onRetry={() => void webhooks.refetch()} /> : null}
          empty="No hay webhooks: créelos arriba."
          items={(webhooks.data ?? []).map((w: Webhook) => ({ id: w.id, name: w.name, detail: `${WEBHOOK_FORMAT_LABELS[w.format]}${w.enabled ? '' : ' · desactivado'}` }))}
          checked={values.webhookIds}
          onToggle={(id) => toggle('webhookIds', id)}
        />
      </div>

      <FormAlert message={formError} />
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:justify-between">
        <Button type="submit" disabled={save.isPending || !ready}>
          {save.isPending ? <Spinner /> : <Save aria-hidden="true" />}
          {save.isPending ? 'Guardando...' : 'Guardar'}
        </Button>
        {extraAction}
      </div>
    </form>
  );
}

interface TargetListProps {
  id: string;
  legend: string;
  error: string | undefined;
  loading: boolean;
  loadError: ReactNode;
  empty: string;
  items: Array<{ id: string; name: string; detail: string }>;
  checked: string[];
  onToggle: (id: string) => void;
}

/** A fieldset of checkboxes: the users or webhooks the escalation tells. */
function TargetList({ id, legend, error, loading, loadError, empty, items, checked, onToggle }: TargetListProps) {
  return (
    <fieldset id={id} tabIndex={-1} className="grid min-w-0 content-start gap-2" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-2 text-sm font-medium">
        {legend}
        {checked.length > 0 ? <span className="ml-1 font-normal text-muted-foreground">({items.filter((i) => checked.includes(i.id)).length})</span> : null}
      </legend>
      {loadError ??
        (loading ? (
          <Skeleton className="h-24" />
        ) : items.length === 0 ? (
          <p className="rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground">{empty}</p>
        ) : (
          <ul className="grid max-h-64 gap-0.5 overflow-y-auto rounded-lg border p-1">
            {items.map((item) => {
              const on = checked.includes(item.id);
              return (
                <li key={item.id}>
                  <label className={cn('flex min-h-11 cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 hover:bg-accent', !on && 'text-muted-foreground')}>
                    <input type="checkbox" className="size-4 shrink-0 accent-primary" checked={on} onChange={() => onToggle(item.id)} />
                    <span className="min-w-0 flex-1">
                      <span className={cn('block text-sm leading-tight font-medium break-words', on && 'text-foreground')}>{item.name}</span>
                      <span className="block truncate text-xs text-muted-foreground">{item.detail}</span>
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        ))}
      <FieldMessages id={id} error={error} />
    </fieldset>
  );
}
