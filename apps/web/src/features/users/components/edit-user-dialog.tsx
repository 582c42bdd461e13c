import { useState, type FormEvent } from 'react';
import { Save } from 'lucide-react';
import type { Role, User, UserStatus } from '@agua/shared';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { fieldAria, focusFirstError, showSubmitError, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { isApiError } from '@/lib/api-client';
import { useUpdateUser, type UpdateUserInput } from '../api/update-user';
import { fieldOfApiError } from '../utils/user-errors';
import { compactErrors, validateEmail, validateMasterPassword, validateName, type UserFieldErrors } from '../utils/validate-user';
import { PasswordInput } from './password-input';
import { RoleField } from './role-field';

const ID = 'edit-user';
const FIELD_ORDER = ['name', 'email', 'role', 'status', 'masterPassword', 'currentMasterPassword'] as const;
const CURRENT_MASTER_HINT = 'Para cambiar su propia Contraseña Maestra escriba la actual. Sus otras sesiones se cerrarán.';
const SELF_NOTE = 'No puede cambiar su propio rol ni estado: pídaselo a otro administrador.';

interface EditUserDialogProps {
  user: User | null;
  isSelf: boolean;
  onOpenChange: (open: boolean) => void;
}

/** 'Editar': name, e-mail, role and status; an admin's master password can be set here too. */
export function EditUserDialog({ user, isSelf, onOpenChange }: EditUserDialogProps) {
  return (
    <Dialog open={user !== null} onOpenChange={onOpenChange}>
      <DialogContent data-testid="edit-user-dialog" className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto" onInteractOutside={(e) => e.preventDefault()}>
        {user ? <EditUserForm user={user} isSelf={isSelf} onClose={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function EditUserForm({ user, isSelf, onClose }: { user: User; isSelf: boolean; onClose: () => void }) {
  const mutation = useUpdateUser();
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [role, setRole] = useState<Role>(user.role);
  const [status, setStatus] = useState<UserStatus>(user.status);
  const [masterPassword, setMasterPassword] = useState('');
  const [currentMasterPassword, setCurrentMasterPassword] = useState('');
  const [errors, setErrors] = useState<UserFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const becomesAdmin = role === 'admin' && user.role !== 'admin';
  // The server asks admins for their current master password before taking a new one of their own.
  const needsCurrentMaster = isSelf && role === 'admin' && masterPassword !== '';
  const masterHint = becomesAdmin
    ? 'Obligatoria al convertir al usuario en administrador: la contraseña maestra propia que se le pedirá al iniciar sesión. Al menos 10 caracteres.'
    : 'Opcional: déjela vacía para conservar la actual, o escriba una nueva (al menos 10 caracteres).';
  const clear = (field: keyof UserFieldErrors) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const found = compactErrors({
      name: validateName(name),
      email: validateEmail(email),
      masterPassword: role === 'admin' ? validateMasterPassword(masterPassword, user.username, null, becomesAdmin) : undefined,
      currentMasterPassword: needsCurrentMaster && !currentMasterPassword ? 'Escriba su Contraseña Maestra actual.' : undefined,
    });
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError(ID, FIELD_ORDER, found);

    const changes: UpdateUserInput['changes'] = {};
    if (name.trim() !== user.name) changes.name = name.trim();
    // Lower case, as the server stores it on creation.
    if (email.trim().toLowerCase() !== user.email.toLowerCase()) changes.email = email.trim().toLowerCase();
    if (role !== user.role) changes.role = role;
    if (status !== user.status) changes.status = status;
    if (role === 'admin' && masterPassword) changes.masterPassword = masterPassword;
    if (needsCurrentMaster) changes.currentMasterPassword = currentMasterPassword;
    if (Object.keys(changes).length === 0) return onClose();

    try {
      const updated = await mutation.mutateAsync({ userId: user.id, changes });
      toast({ title: 'Usuario actualizado', description: `Se guardaron los cambios de ${updated.name} (@${updated.username}).`, variant: 'success' });
      onClose();
    } catch (error) {
      if (isApiError(error) && error.code === 'LAST_ADMIN') {
        toast({ title: 'Acción no permitida', description: error.message, variant: 'destructive' });
        return;
      }
      showSubmitError(error, fieldOfApiError(error), { prefix: ID, order: FIELD_ORDER, setErrors, setFormError });
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-busy={mutation.isPending}>
      <DialogHeader>
        <DialogTitle>Editar usuario</DialogTitle>
        <DialogDescription>
          <span className="font-mono">@{user.username}</span> · el nombre de usuario no se puede cambiar.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id={`${ID}-name`} label="Nombre completo" error={errors.name}>
          <Input {...fieldAria(`${ID}-name`, { error: errors.name })} autoComplete="off" value={name} onChange={(e) => (setName(e.target.value), clear('name'))} />
        </FormField>
        <FormField id={`${ID}-email`} label="Correo electrónico" error={errors.email}>
          <Input {...fieldAria(`${ID}-email`, { error: errors.email })} type="email" autoComplete="off" value={email} onChange={(e) => (setEmail(e.target.value), clear('email'))} />
        </FormField>
        <RoleField
          id={`${ID}-role`}
          value={role}
          disabled={isSelf}
          note={isSelf ? SELF_NOTE : undefined}
          onChange={(r) => (setRole(r), setMasterPassword(''), clear('masterPassword'))}
          error={errors.role}
        />
        <FormField id={`${ID}-status`} label="Estado" error={errors.status}>
          <NativeSelect {...fieldAria(`${ID}-status`, { error: errors.status })} value={status} disabled={isSelf} onChange={(e) => setStatus(e.target.value as UserStatus)}>
            <option value="active">Activo</option>
            <option value="inactive">Inactivo</option>
          </NativeSelect>
        </FormField>
      </div>
      {role === 'admin' ? (
        <FormField id={`${ID}-masterPassword`} label={becomesAdmin ? 'Contraseña Maestra' : 'Nueva Contraseña Maestra (opcional)'} hint={masterHint} error={errors.masterPassword}>
          <PasswordInput
            {...fieldAria(`${ID}-masterPassword`, { hint: masterHint, error: errors.masterPassword })}
            autoComplete="new-password"
            value={masterPassword}
            onChange={(e) => (setMasterPassword(e.target.value), clear('masterPassword'))}
          />
        </FormField>
      ) : null}
      {needsCurrentMaster ? (
        <FormField id={`${ID}-currentMasterPassword`} label="Contraseña Maestra actual" hint={CURRENT_MASTER_HINT} error={errors.currentMasterPassword}>
          <PasswordInput
            {...fieldAria(`${ID}-currentMasterPassword`, { hint: CURRENT_MASTER_HINT, error: errors.currentMasterPassword })}
            autoComplete="current-password"
            value={currentMasterPassword}
            onChange={(e) => (setCurrentMasterPassword(e.target.value), clear('currentMasterPassword'))}
          />
        </FormField>
      ) : null}
      {status === 'inactive' && user.status === 'active' ? (
        <p className="text-sm text-muted-foreground">Al desactivarlo se cerrarán sus sesiones abiertas y no podrá iniciar sesión.</p>
      ) : null}
      <FormDialogFooter
        error={formError}
        pending={mutation.isPending}
        onCancel={onClose}
        icon={<Save aria-hidden="true" />}
        label="Guardar cambios"
        pendingLabel="Guardando..."
      />
    </form>
  );
}
