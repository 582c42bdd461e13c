import { PERMISSION_LABELS, ROLE_BADGE_NAMES, ROLE_PERMISSIONS, ROLES, type Role } from '@agua/shared';
import { fieldAria, FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';

interface RoleFieldProps {
  id: string;
  value: Role;
  onChange: (role: Role) => void;
  disabled?: boolean;
  error?: string | undefined;
  /** Replaces the permissions summary (e.g. why the field is locked). */
  note?: string | undefined;
}

/** Role select; the hint lists what the chosen role may do, from the shared permission table. */
export function RoleField({ id, value, onChange, disabled, error, note }: RoleFieldProps) {
  const hint = note ?? `Permisos: ${ROLE_PERMISSIONS[value].map((p) => PERMISSION_LABELS[p]).join(', ')}.`;
  return (
    <FormField id={id} label="Rol" hint={hint} error={error}>
      <NativeSelect {...fieldAria(id, { hint, error })} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as Role)}>
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {ROLE_BADGE_NAMES[role]}
          </option>
        ))}
      </NativeSelect>
    </FormField>
  );
}
