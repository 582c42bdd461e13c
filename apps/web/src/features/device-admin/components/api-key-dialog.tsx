import { KeyRound, TriangleAlert } from 'lucide-react';
import { Tabs } from 'radix-ui';
import type { DeviceType } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useMqttPort } from '../api/get-health';
import { httpSnippet, mqttSnippet } from '../utils/firmware-snippets';
import { SnippetBlock } from './snippet-block';

export interface IssuedKeyView {
  deviceId: string;
  deviceName: string;
  type: DeviceType;
  apiKey: string;
  reason: 'created' | 'rotated';
}

const TAB_TRIGGER =
  'inline-flex h-11 flex-1 items-center justify-center rounded-md px-3 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring data-[state=active]:bg-card data-[state=active]:text-foreground data-[state=active]:shadow-xs sm:h-9';

/**
 * The device's API key, shown this one time (the server keeps only a hash), with firmware
 * configuration for both transports. A click outside does not close it: the key would be lost.
 */
export function ApiKeyDialog({ issued, onClose }: { issued: IssuedKeyView | null; onClose: () => void }) {
  return (
    <Dialog open={issued !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        data-testid="api-key-dialog"
        className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto"
        onInteractOutside={(e) => e.preventDefault()}
      >
        {issued ? <ApiKeyContent issued={issued} onClose={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function ApiKeyContent({ issued, onClose }: { issued: IssuedKeyView; onClose: () => void }) {
  const mqttPort = useMqttPort();
  const target = {
    deviceId: issued.deviceId,
    type: issued.type,
    apiKey: issued.apiKey,
    origin: window.location.origin,
    host: window.location.hostname,
    mqttPort,
  };
  return (
    <>
      <DialogHeader>
        <DialogTitle>{issued.reason === 'created' ? 'Dispositivo creado' : 'Nueva clave API'}</DialogTitle>
        <DialogDescription>
          {issued.deviceName} · <span className="font-mono">{issued.deviceId}</span>
        </DialogDescription>
      </DialogHeader>

      <div role="alert" className="flex gap-2 rounded-md border border-warn/40 bg-warn/15 p-3 text-sm text-foreground">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warn-fg" />
        <p>
          <strong>Esta clave no se volverá a mostrar.</strong> Cópiela ahora y cárguela en el firmware del dispositivo; si la pierde, tendrá que rotarla.
          {issued.reason === 'rotated' ? ' La clave anterior ya no funciona: el dispositivo quedará desconectado hasta que use la nueva.' : ''}
        </p>
      </div>

      <div className="grid gap-2">
        <p className="flex items-center gap-2 text-sm font-medium">
          <KeyRound aria-hidden="true" className="size-4 text-muted-foreground" />
          Clave API
        </p>
        <div className="flex items-center gap-2">
          <code data-testid="api-key" className="min-w-0 flex-1 rounded-md border bg-muted/60 px-3 py-2.5 font-mono text-sm break-all select-all">
            {issued.apiKey}
          </code>
          <CopyButton text={issued.apiKey} label="Copiar clave API" autoFocus />
        </div>
      </div>

      <Tabs.Root defaultValue="http" className="grid min-w-0 gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm font-medium">Configuración del firmware</p>
          <Tabs.List aria-label="Transporte" className="flex w-full gap-1 rounded-lg bg-muted p-1 sm:w-auto">
            <Tabs.Trigger value="http" className={TAB_TRIGGER}>
              HTTP
            </Tabs.Trigger>
            <Tabs.Trigger value="mqtt" className={TAB_TRIGGER}>
              MQTT
            </Tabs.Trigger>
          </Tabs.List>
        </div>
        <Tabs.Content value="http" className="min-w-0 focus-visible:outline-none">
          <SnippetBlock code={httpSnippet(target)} label="configuración HTTP" />
        </Tabs.Content>
        <Tabs.Content value="mqtt" className="grid min-w-0 gap-2 focus-visible:outline-none">
          <SnippetBlock code={mqttSnippet(target)} label="configuración MQTT" />
          {mqttPort === null ? (
            <p className="text-xs text-muted-foreground">El servidor no informa de un broker MQTT propio: confirme el host y el puerto del broker con el administrador del sistema.</p>
          ) : null}
        </Tabs.Content>
      </Tabs.Root>

      <DialogFooter>
        <Button onClick={onClose}>He guardado la clave</Button>
      </DialogFooter>
    </>
  );
}
