import { KeyRound, TriangleAlert } from 'lucide-react';
import { CopyButton } from '@/components/ui/copy-button';

/**
 * The generated temporary password, shown this once: it is not stored in the browser and the
 * server keeps only its hash, so closing the dialog loses it (a new reset is then needed).
 */
export function TemporaryPasswordResult({ username, password }: { username: string; password: string }) {
  return (
    <div className="grid gap-4" data-testid="temporary-password-result">
      <div className="grid gap-2 rounded-lg border bg-muted/50 p-4">
        <p className="text-sm text-muted-foreground">
          Usuario <span className="font-mono font-medium text-foreground">@{username}</span>
        </p>
        <p className="flex items-center gap-2 text-sm font-medium">
          <KeyRound aria-hidden="true" className="size-4 text-muted-foreground" />
          Contraseña temporal
        </p>
        <div className="flex items-center gap-2">
          <code data-testid="temporary-password" className="min-w-0 flex-1 rounded-md border bg-card px-3 py-2.5 font-mono text-base break-all select-all">
            {password}
          </code>
          <CopyButton text={password} label="Copiar contraseña" autoFocus />
        </div>
      </div>
      <p className="flex gap-2 text-sm">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warn-fg" />
        <span>
          Esta contraseña se muestra <strong>una sola vez</strong>: cópiela y entréguela al usuario por un canal seguro. El usuario deberá cambiarla en su
          primer inicio de sesión.
        </span>
      </p>
    </div>
  );
}
