import { useId, useState } from 'react';
import { Link2, Unlink } from 'lucide-react';
import type { Device, Site } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { useAssignDeviceSite } from '../api/sites-api';

/** Which devices belong to the site (PATCH /devices/{id} {siteId}): add one from another site or none, or take one out. */
export function SiteDevicesCard({ site, devices, sites }: { site: Site; devices: readonly Device[]; sites: readonly Site[] }) {
  const id = useId();
  const assign = useAssignDeviceSite();
  const [choice, setChoice] = useState('');
  const mine = devices.filter((d) => d.siteId === site.id);
  const others = devices.filter((d) => d.siteId !== site.id);
  const siteName = (sid: string | null) => (sid ? (sites.find((s) => s.id === sid)?.name ?? sid) : null);

  function move(device: Device, siteId: string | null) {
    assign.mutate(
      { deviceId: device.id, siteId },
      {
        onSuccess: () => toast({ title: siteId ? 'Dispositivo asignado' : 'Dispositivo retirado del sitio', description: device.name, variant: 'success' }),
        onError: (error) => toast({ title: 'No se pudo cambiar el sitio', description: error.message, variant: 'destructive' }),
      },
    );
  }

  return (
    <Card className="grid gap-3 p-4" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-sm font-semibold">
        Dispositivos del sitio
      </h2>
      {mine.length === 0 ? <p className="text-xs text-muted-foreground">Ninguno todavía.</p> : null}
      <ul className="grid gap-1">
        {mine.map((d) => (
          <li key={d.id} className="flex items-center justify-between gap-2 text-sm">
            <span className="min-w-0 break-words">{d.name}</span>
            <Button variant="ghost" size="sm" onClick={() => move(d, null)} disabled={assign.isPending} aria-label={`Quitar ${d.name} del sitio`}>
              <Unlink aria-hidden="true" />
              Quitar
            </Button>
          </li>
        ))}
      </ul>
      {others.length > 0 ? (
        <div className="grid gap-2">
          <FormField id={`${id}-add`} label="Añadir un dispositivo al sitio">
            <NativeSelect id={`${id}-add`} value={choice} onChange={(e) => setChoice(e.target.value)}>
              <option value="">Elija un dispositivo…</option>
              {others.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                  {d.siteId ? ` (ahora en ${siteName(d.siteId)})` : ''}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <Button
            variant="outline"
            disabled={!choice || assign.isPending}
            onClick={() => {
              const device = others.find((d) => d.id === choice);
              if (device) move(device, site.id);
              setChoice('');
            }}
          >
            <Link2 aria-hidden="true" />
            Asignar al sitio
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
