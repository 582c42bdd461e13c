import type { ReactNode } from 'react';
import { Button } from './button';
import { DialogFooter } from './dialog';
import { FormAlert } from './form-alert';
import { Spinner } from './spinner';

interface FormDialogFooterProps {
  /** Form-level error (one not tied to a field), shown above the buttons. */
  error: string | null;
  pending: boolean;
  onCancel: () => void;
  icon: ReactNode;
  label: string;
  pendingLabel: string;
}

/** The end of every form dialog: its error, 'Cancelar', and a submit that cannot be pressed twice. */
export function FormDialogFooter({ error, pending, onCancel, icon, label, pendingLabel }: FormDialogFooterProps) {
  return (
    <>
      <FormAlert message={error} />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancelar
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? <Spinner /> : icon}
          {pending ? pendingLabel : label}
        </Button>
      </DialogFooter>
    </>
  );
}
