import { KeyRound, TriangleAlert } from 'lucide-react';
import { CopyButton } from '@/components/ui/copy-button';

/**
 * A new webhook's signing secret, shown this once: the server lists webhooks without it, so
 * closing the dialog loses it (the webhook then has to be created again).
 */
export function WebhookSecretResult({ name, secret }: { name: string; secret: string }) {
  return (
    <div className="grid gap-4" data-testid="webhook-secret-result">
      <p className="flex gap-2 text-sm font-medium">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warn-fg" />
        <span>Guarde este secreto: no se volverá a mostrar.</span>
      </p>
      <div className="grid gap-2 rounded-lg border bg-muted/50 p-4">
        <p className="flex items-center gap-2 text-sm font-medium">
          <KeyRound aria-hidden="true" className="size-4 text-muted-foreground" />
          Secreto de {name}
        </p>
        <div className="flex items-center gap-2">
          <code data-testid="webhook-secret" className="min-w-0 flex-1 rounded-md border bg-card px-3 py-2.5 font-mono text-sm break-all select-all">
            {secret}
          </code>
          <CopyButton text={secret} label="Copiar secreto" autoFocus />
        </div>
      </div>
      <p className="text-sm text-muted-foreground">
        Cada envío lleva la cabecera <code className="font-mono text-foreground">X-Agua-Signature: sha256=…</code>, la firma HMAC-SHA256 del cuerpo con este
        secreto. El receptor la calcula igual y la compara para saber que el aviso viene de este panel y no ha sido alterado.
      </p>
    </div>
  );
}
