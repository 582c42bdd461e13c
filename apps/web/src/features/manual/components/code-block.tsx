import { useEffect, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** A <pre> block with a copy button (falls back silently where the clipboard is not allowed). */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(t);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      // Clipboard needs a secure context (https or localhost); the text stays selectable.
    }
  }

  return (
    <figure className="group relative my-3 min-w-0">
      <figcaption className="sr-only">{label}</figcaption>
      <pre className="overflow-x-auto rounded-lg border bg-muted/60 p-4 pr-14 font-mono text-xs leading-relaxed sm:text-[13px]">
        <code>{code}</code>
      </pre>
      <Button variant="ghost" size="icon" onClick={copy} aria-label={copied ? 'Copiado' : `Copiar: ${label}`} className="absolute top-1 right-1">
        {copied ? <Check className="text-ok" aria-hidden="true" /> : <Copy aria-hidden="true" />}
      </Button>
      <span role="status" className="sr-only">
        {copied ? 'Copiado al portapapeles' : ''}
      </span>
    </figure>
  );
}
