import { Pencil, ShieldCheck, ShieldOff, Trash2 } from 'lucide-react';
import { commandLabel, DEVICE_COMMANDS, DEVICE_TYPE_LABELS, INTERLOCK_MODE_LABELS, type Device, type Interlock } from '@agua/shared';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useInstallationTimeZone } from '@/features/auth/api/get-config';
import { useNow } from '@/hooks/use-now';
import { formatClockIn } from '@/lib/format';
import { conditionText } from '../utils/condition-text';
import { PermissiveCheck } from './permissive-check';

export interface InterlockActions {
  onEdit: (i: Interlock) => void;
  onBypass: (i: Interlock) => void;
  onEndBypass: (i: Interlock) => void;
  onDelete: (i: Interlock) => void;
}

interface Group {
  deviceId: string;
  device: Device | undefined;
  commands: Array<{ command: string; interlocks: Interlock[] }>;
}

/** By device (by name), then by command in the device's own order. */
export function groupInterlocks(interlocks: readonly Interlock[], devices: readonly Device[]): Group[] {
  const byId = new Map(devices.map((d) => [d.id, d]));
  const groups = new Map<string, Map<string, Interlock[]>>();
  for (const i of interlocks) {
    const commands = groups.get(i.deviceId) ?? new Map<string, Interlock[]>();
    groups.set(i.deviceId, commands);
    commands.set(i.command, [...(commands.get(i.command) ?? []), i]);
  }
  return [...groups.entries()]
    .map(([deviceId, commands]) => {
      const device = byId.get(deviceId);
      const order = device ? (DEVICE_COMMANDS[device.type] as readonly string[]) : [];
      const rank = (c: string) => (order.includes(c) ? order.indexOf(c) : order.length);
      return {
        deviceId,
        device,
        commands: [...commands.entries()].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b)).map(([command, list]) => ({ command, interlocks: list.sort((a, b) => a.name.localeCompare(b.name, 'es')) })),
      };
    })
    .sort((a, b) => (a.device?.name ?? a.deviceId).localeCompare(b.device?.name ?? b.deviceId, 'es'));
}

function InterlockItem({ interlock, deviceName, actions, now }: { interlock: Interlock; deviceName: (id: string) => string; actions: InterlockActions; now: number }) {
  const timeZone = useInstallationTimeZone();
  const bypass = interlock.bypass && Date.parse(interlock.bypass.until) > now ? interlock.bypass : null;
  return (
    <li data-testid={`interlock-${interlock.id}`} className="grid gap-3 px-4 py-3 sm:px-5 @3xl:grid-cols-[minmax(0,1fr)_auto]">
      <div className="grid min-w-0 gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <p className="font-semibold break-words">{interlock.name}</p>
          <Badge tone="neutral">{INTERLOCK_MODE_LABELS[interlock.mode]}</Badge>
          {interlock.enabled ? <Badge tone="outline">Activo</Badge> : <Badge tone="outline">Desactivado</Badge>}
          {bypass ? (
            <Badge tone="warn">
              <ShieldOff aria-hidden="true" />
              Anulado hasta {formatClockIn(bypass.until, timeZone, now)}
            </Badge>
          ) : null}
        </div>
        <div className="text-sm">
          <p className="text-xs text-muted-foreground">Se permite si se cumple{interlock.conditions.length > 1 ? 'n todas' : ''}:</p>
          <ul className="mt-1 ml-5 list-disc">
            {interlock.conditions.map((c, i) => (
              <li key={i} className="break-words">
                {conditionText(c, deviceName)}
              </li>
            ))}
          </ul>
        </div>
        {bypass ? (
          <p className="text-xs break-words text-muted-foreground">
            Anulado por {bypass.by.name}: {bypass.comment}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap content-start gap-2 @3xl:justify-end">
        <Button size="sm" variant="outline" onClick={() => actions.onEdit(interlock)} aria-label={`Editar ${interlock.name}`}>
          <Pencil aria-hidden="true" />
          Editar
        </Button>
        {bypass ? (
          <Button size="sm" variant="outline" onClick={() => actions.onEndBypass(interlock)} aria-label={`Terminar anulación de ${interlock.name}`}>
            <ShieldCheck aria-hidden="true" />
            Terminar anulación
          </Button>
        ) : (
          <Button size="sm" variant="outline" onClick={() => actions.onBypass(interlock)} aria-label={`Anular ${interlock.name}`}>
            <ShieldOff aria-hidden="true" />
            Anular
          </Button>
        )}
        <Button size="sm" variant="outline" onClick={() => actions.onDelete(interlock)} aria-label={`Eliminar ${interlock.name}`}>
          <Trash2 aria-hidden="true" />
          Eliminar
        </Button>
      </div>
    </li>
  );
}

/** The interlocks by device and command: name, mode, enabled, the conditions in words, the bypass; the test of each command. */
export function InterlockList({ interlocks, devices, actions }: { interlocks: readonly Interlock[]; devices: readonly Device[]; actions: InterlockActions }) {
  const now = useNow();
  const names = new Map(devices.map((d) => [d.id, d.name]));
  const deviceName = (id: string) => names.get(id) ?? id;
  const groups = groupInterlocks(interlocks, devices);
  if (groups.length === 0) {
    return (
      <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
        No hay enclavamientos definidos. Con «Nuevo enclavamiento» se pone una condición delante de un comando, por ejemplo no abrir una compuerta con el tanque de destino lleno.
      </p>
    );
  }
  return (
    <div className="grid gap-6">
      {groups.map((g) => (
        <Card key={g.deviceId} data-testid={`interlock-group-${g.deviceId}`} className="overflow-hidden">
          <section aria-labelledby={`ilk-device-${g.deviceId}`}>
            <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-4 pt-4 sm:px-5">
              <h2 id={`ilk-device-${g.deviceId}`} className="text-lg font-semibold">
                {g.device?.name ?? g.deviceId}
              </h2>
              <span className="text-xs text-muted-foreground">
                {g.device ? DEVICE_TYPE_LABELS[g.device.type] : 'Dispositivo no encontrado'} · <span className="font-mono">{g.deviceId}</span>
              </span>
            </div>
            {g.commands.map(({ command, interlocks: list }) => (
              <section key={command} aria-labelledby={`ilk-${g.deviceId}-${command}`} className="mt-3 border-t">
                <div className="grid gap-2 px-4 pt-3 sm:px-5">
                  <h3 id={`ilk-${g.deviceId}-${command}`} className="text-sm font-semibold tracking-wide text-muted-foreground uppercase">
                    {commandLabel(command)}
                  </h3>
                  <PermissiveCheck deviceId={g.deviceId} command={command} />
                </div>
                <ul className="divide-y">
                  {list.map((i) => (
                    <InterlockItem key={i.id} interlock={i} deviceName={deviceName} actions={actions} now={now} />
                  ))}
                </ul>
              </section>
            ))}
          </section>
        </Card>
      ))}
    </div>
  );
}
