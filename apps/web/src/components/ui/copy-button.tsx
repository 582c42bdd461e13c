import { useEffect, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { cn } from '@/lib/utils';
import { Button, type ButtonProps } from './button';

/**
 * Copies text. The Clipboard API needs a secure context, and a plant's network often serves the
 * app over plain http by IP address, so execCommand('copy') is the fallback. The helper textarea
 * goes inside the open dialog, because a dialog's focus trap would pull focus back from <body>.
 */
export async function copyText(text: string, near?: Element | null): Promise<boolean> {
  try {
    if (window.isSecureContext && navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Permission refused: try the fallback.
  }
  const host = near?.closest('[role="dialog"],[role="alertdialog"]') ?? document.body;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  host.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

interface CopyButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  text: string;
  /** What is copied, for the accessible name ('Copiar clave API'). */
  label: string;
}

/** An icon button that copies `text` and says so for a moment (also to screen readers). */
export function CopyButton({ text, label, variant = 'outline', size = 'icon', className, ...props }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(t);
  }, [state]);

  return (
    <>
      <Button
        variant={variant}
        size={size}
        aria-label={label}
        title={state === 'failed' ? 'No se pudo copiar: selecciónelo y cópielo a mano' : label}
        className={cn(state === 'failed' && 'border-crit/50', className)}
        onClick={async (event) => setState((await copyText(text, event.currentTarget)) ? 'copied' : 'failed')}
        {...props}
      >
        {state === 'copied' ? <Check aria-hidden="true" className="text-ok" /> : <Copy aria-hidden="true" />}
      </Button>
      <span role="status" className="sr-only">
        {state === 'copied' ? 'Copiado al portapapeles' : state === 'failed' ? 'No se pudo copiar: selecciónelo y cópielo a mano' : ''}
      </span>
    </>
  );
}
