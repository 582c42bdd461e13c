import { useState, type ComponentProps } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';

/** A password input with a show/hide toggle (an admin types a secret for someone else). */
export function PasswordInput({ className, revealed, ...props }: Omit<ComponentProps<'input'>, 'type'> & { revealed?: boolean }) {
  const [shown, setShown] = useState(false);
  const visible = revealed || shown;
  return (
    <div className="relative">
      <Input type={visible ? 'text' : 'password'} spellCheck={false} autoCapitalize="off" className={cn('pr-11', visible && 'font-mono', className)} {...props} />
      <button
        type="button"
        onClick={() => setShown((s) => !s)}
        aria-label={visible ? 'Ocultar contraseña' : 'Mostrar contraseña'}
        aria-pressed={visible}
        disabled={revealed}
        className="absolute top-0 right-0 inline-flex size-11 items-center justify-center rounded-md text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-0"
      >
        {visible ? <EyeOff aria-hidden="true" className="size-4" /> : <Eye aria-hidden="true" className="size-4" />}
      </button>
    </div>
  );
}
