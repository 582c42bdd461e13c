import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { BellRing, Send } from 'lucide-react';
import { ALARM_PRIORITY_LABELS, type MyNotifications, type NotificationPreferences } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { queryKeys } from '@/lib/query-keys';
import { useSavePreferences, useTestPush } from '../api/my-notifications';
import { currentSubscription, pushSupported, turnPushOff, turnPushOn } from '../api/push-subscription';

type MinPriority = NotificationPreferences['email']['minPriority'];

/** 'Desactivado', 'Solo Crítica', 'Crítica y Alta', 'Hasta Media', 'Todas'. */
const LEVELS: Array<{ value: string; label: string }> = [
  { value: 'off', label: 'Desactivado' },
  { value: '1', label: `Solo ${ALARM_PRIORITY_LABELS[1]}` },
  { value: '2', label: `${ALARM_PRIORITY_LABELS[1]} y ${ALARM_PRIORITY_LABELS[2]}` },
  { value: '3', label: `Hasta ${ALARM_PRIORITY_LABELS[3]}` },
  { value: '4', label: 'Todas' },
];
const toValue = (p: MinPriority) => (p === null ? 'off' : String(p));
const fromValue = (v: string): MinPriority => (v === 'off' ? null : (Number(v) as 1 | 2 | 3 | 4));
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The lowest priority that reaches me on one channel. */
function PrioritySelect({ id, label, hint, value, onChange }: { id: string; label: string; hint: string; value: string; onChange: (value: string) => void }) {
  return (
    <FormField id={id} label={label} hint={hint}>
      <NativeSelect {...fieldAria(id, { hint: true })} value={value} onChange={(e) => onChange(e.target.value)}>
        {LEVELS.map((l) => (
          <option key={l.value} value={l.value}>
            {l.label}
          </option>
        ))}
      </NativeSelect>
    </FormField>
  );
}

/** 'Mis notificaciones': which alarms reach me by e-mail and push, and push on this browser. */
export function MyNotificationsForm({ mine }: { mine: MyNotifications }) {
  const [email, setEmail] = useState(toValue(mine.preferences.email.minPriority));
  const [push, setPush] = useState(toValue(mine.preferences.push.minPriority));
  const [here, setHere] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const save = useSavePreferences();
  const testPush = useTestPush();
  const queryClient = useQueryClient();

  useEffect(() => {
    void currentSubscription().then((s) => setHere(s !== null), () => setHere(false));
  }, []);

  const onSave = () =>
    save.mutate(
      { email: { minPriority: fromValue(email) }, push: { minPriority: fromValue(push) } },
      {
        onSuccess: () => toast({ title: 'Preferencias guardadas', variant: 'success' }),
        onError: (err) => toast({ title: 'No se pudo guardar', description: errorText(err), variant: 'destructive' }),
      },
    );

  const togglePush = async () => {
    setBusy(true);
    try {
      if (here) {
        await turnPushOff();
        await queryClient.invalidateQueries({ queryKey: queryKeys.myNotifications });
      } else {
        queryClient.setQueryData(queryKeys.myNotifications, await turnPushOn(mine.vapidPublicKey));
      }
      setHere(!here);
      toast({ title: here ? 'Push desactivado en este navegador' : 'Push activado en este navegador', variant: 'success' });
    } catch (err) {
      toast({ title: 'No se pudo cambiar el push', description: errorText(err), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="grid gap-6">
      <Card className="grid gap-5 p-5 sm:p-6">
        <PrioritySelect
          id="notif-email"
          label="Correo electrónico"
          hint={mine.channels.email ? `Se envía a ${mine.email ?? 'su correo'}.` : 'El servidor no tiene correo configurado (SMTP_URL).'}
          value={email}
          onChange={setEmail}
        />
        <PrioritySelect
          id="notif-push"
          label="Notificaciones push"
          hint={mine.channels.push ? 'En los navegadores y teléfonos donde active el push.' : 'El servidor no tiene PUBLIC_URL: no se envían notificaciones push.'}
          value={push}
          onChange={setPush}
        />
        <div>
          <Button onClick={onSave} disabled={save.isPending}>
            {save.isPending ? 'Guardando...' : 'Guardar'}
          </Button>
        </div>
      </Card>

      <Card className="grid gap-4 p-5 sm:p-6">
        <div className="flex items-start gap-3">
          <BellRing className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
          <div className="min-w-0">
            <h2 className="font-semibold">Push en este navegador</h2>
            <p className="text-sm text-muted-foreground">
              {!pushSupported()
                ? 'Este navegador no admite notificaciones push.'
                : here
                  ? 'Activado: las alarmas llegan aquí aunque la página esté cerrada.'
                  : 'Desactivado en este navegador.'}{' '}
              {mine.pushSubscriptions > 0 ? `Navegadores con push: ${mine.pushSubscriptions}.` : null}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant={here ? 'outline' : 'default'} onClick={() => void togglePush()} disabled={busy || here === null || !pushSupported()}>
            {here ? 'Desactivar push aquí' : 'Activar push aquí'}
          </Button>
          <Button
            variant="outline"
            disabled={testPush.isPending || mine.pushSubscriptions === 0}
            onClick={() =>
              testPush.mutate(undefined, {
                onSuccess: () => toast({ title: 'Prueba enviada', description: 'Debería llegar en unos segundos.', variant: 'success' }),
                onError: (err) => toast({ title: 'No se pudo enviar la prueba', description: errorText(err), variant: 'destructive' }),
              })
            }
          >
            <Send aria-hidden="true" />
            Enviar prueba
          </Button>
        </div>
      </Card>
    </div>
  );
}
