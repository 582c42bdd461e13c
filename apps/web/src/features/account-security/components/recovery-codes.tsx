import { useState } from 'react';
import { Check, Copy, Download, TriangleAlert } from 'lucide-react';
import { PRODUCT_NAME } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { copyText } from '@/components/ui/copy-button';
import { saveBlob } from '@/lib/download';
import { recoveryCodesFileName, recoveryCodesText } from '../utils/two-factor-texts';

/**
 * The ten recovery codes, shown this once after turning two-factor sign-in on, with 'Copiar' and
 * 'Descargar' (a .txt) and the warning that they will not be shown again.
 */
export function RecoveryCodes({ codes, username, onDone, doneLabel }: { codes: readonly string[]; username: string; onDone: () => void; doneLabel: string }) {
  const [at] = useState(() => new Date());
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const text = recoveryCodesText(codes, { product: PRODUCT_NAME, username, at });

  return (
    <div className="grid gap-4" data-testid="recovery-codes">
      <div role="alert" className="flex gap-3 rounded-md border border-warn/40 bg-warn/12 p-3 text-sm">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warn-fg" />
        <div className="grid gap-1">
          <p className="font-semibold">Guarde ahora sus códigos de recuperación: solo se muestran esta vez.</p>
          <p className="text-muted-foreground">
            Si pierde el teléfono, cada código le deja entrar una sola vez en lugar del código de la aplicación. Guárdelos fuera del teléfono, en un lugar seguro.
          </p>
        </div>
      </div>
      <ol aria-label="Códigos de recuperación" className="grid grid-cols-1 gap-2 rounded-md border bg-muted/40 p-3 font-mono text-sm min-[360px]:grid-cols-2">
        {codes.map((code) => (
          <li key={code} className="rounded bg-card px-2 py-1.5 text-center tracking-wider select-all">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={async (event) => setCopied((await copyText(text, event.currentTarget)) ? 'copied' : 'failed')}>
          {copied === 'copied' ? <Check aria-hidden="true" className="text-ok" /> : <Copy aria-hidden="true" />}
          Copiar
        </Button>
        <Button variant="outline" onClick={() => saveBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), recoveryCodesFileName(username, at))}>
          <Download aria-hidden="true" />
          Descargar
        </Button>
        <Button onClick={onDone} className="sm:ml-auto">
          {doneLabel}
        </Button>
      </div>
      <p role="status" className="text-xs text-muted-foreground">
        {copied === 'copied' ? 'Códigos copiados al portapapeles.' : copied === 'failed' ? 'No se pudieron copiar: selecciónelos y cópielos a mano.' : ''}
      </p>
    </div>
  );
}
