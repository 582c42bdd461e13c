import { Wand2 } from 'lucide-react';
import { PASSWORD_MIN_LENGTH } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { fieldAria, FormField } from '@/components/ui/form-field';
import { generateTemporaryPassword } from '../utils/generate-password';
import { PasswordInput } from './password-input';

interface TemporaryPasswordFieldProps {
  id: string;
  value: string;
  /** Whether the current value came from 'Generar' (it is then shown in clear, with a copy button). */
  generated: boolean;
  onChange: (value: string, generated: boolean) => void;
  error?: string | undefined;
  label?: string;
}

/** A temporary password, typed or generated; either way the user changes it at first sign-in. */
export function TemporaryPasswordField({ id, value, generated, onChange, error, label = 'Contraseña temporal' }: TemporaryPasswordFieldProps) {
  const hint = `Al menos ${PASSWORD_MIN_LENGTH} caracteres y distinta del nombre de usuario. El usuario deberá cambiarla en su primer inicio de sesión.`;
  return (
    <FormField id={id} label={label} hint={hint} error={error}>
      {/* On a phone the buttons go below, so that the whole password stays readable. */}
      <div className="flex flex-wrap gap-2 sm:flex-nowrap">
        <div className="min-w-0 basis-full sm:basis-auto sm:flex-1">
          <PasswordInput
            {...fieldAria(id, { hint, error })}
            autoComplete="new-password"
            revealed={generated}
            value={value}
            onChange={(e) => onChange(e.target.value, false)}
          />
        </div>
        {generated && value ? <CopyButton text={value} label="Copiar contraseña" /> : null}
        <Button type="button" variant="secondary" onClick={() => onChange(generateTemporaryPassword(), true)}>
          <Wand2 aria-hidden="true" />
          Generar
        </Button>
      </div>
    </FormField>
  );
}
