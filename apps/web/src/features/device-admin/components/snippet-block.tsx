import { CopyButton } from '@/components/ui/copy-button';

/** A ready-to-paste block of firmware configuration with its own copy button. */
export function SnippetBlock({ code, label }: { code: string; label: string }) {
  return (
    <figure className="relative min-w-0">
      <figcaption className="sr-only">{label}</figcaption>
      <pre className="max-h-72 overflow-auto rounded-lg border bg-muted/60 p-3 pr-14 font-mono text-[11px] leading-relaxed sm:text-xs">
        <code>{code}</code>
      </pre>
      <CopyButton text={code} label={`Copiar ${label}`} variant="ghost" className="absolute top-1 right-1 bg-muted/90" />
    </figure>
  );
}
