import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';
import { Label } from './label';

/** The ids an input needs so that screen readers announce its hint and its error. */
export function fieldAria(id: string, { hint, error }: { hint?: ReactNode; error?: string | null | undefined }) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  } as const;
}

interface FormFieldProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null | undefined;
  className?: string;
  children: ReactNode;
}

/** Label, control, hint and inline error of one form field; pair the control with fieldAria(). */
export function FormField({ id, label, hint, error, className, children }: FormFieldProps) {
  return (
    <div className={cn('grid content-start gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  );
}

/**
 * A field's hint and inline error under it (`<id>-hint`, `<id>-error`, for aria-describedby):
 * FormField's, and a fieldset's or a table editor's that has no single label.
 */
export function FieldMessages({ id, hint, error }: { id: string; hint?: ReactNode; error?: string | null | undefined }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-crit-fg">
          {error}
        </p>
      ) : null}
    </>
  );
}

/** Focuses the first field (in `order`) that has an error, once React has rendered the messages. */
export function focusFirstError(prefix: string, order: readonly string[], errors: Partial<Record<string, string | undefined>>): void {
  const first = order.find((f) => errors[f]);
  if (first) requestAnimationFrame(() => document.getElementById(`${prefix}-${first}`)?.focus());
}

interface SubmitErrorTargets<F extends string> {
  prefix: string;
  order: readonly string[];
  setErrors: (errors: Partial<Record<F, string>>) => void;
  setFormError: (message: string) => void;
}

/**
 * Shows a failed submit where it belongs: on the field the server's answer names (focused), or
 * above the buttons when it names none.
 */
export function showSubmitError<F extends string>(
  error: unknown,
  field: { field: F; message: string } | null,
  { prefix, order, setErrors, setFormError }: SubmitErrorTargets<F>,
): void {
  if (!field) {
    setFormError(error instanceof Error ? error.message : String(error));
    return;
  }
  const next = { [field.field]: field.message } as Partial<Record<F, string>>;
  setErrors(next);
  focusFirstError(prefix, order, next);
}
