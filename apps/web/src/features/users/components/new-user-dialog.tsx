import { useState, type FormEvent } from 'react';
import { UserPlus } from 'lucide-react';
import type { Role } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { fieldAria, focusFirstError, showSubmitError, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { useCreateUser } from '../api/create-user';
import { fieldOfApiError } from '../utils/user-errors';
import {
  compactErrors,
  validateEmail,
  validateMasterPassword,
  validateName,
  validatePassword,
  validateUsername,
  type UserFieldErrors,
} from '../utils/validate-user';
import { PasswordInput } from './password-input';
import { RoleField } from './role-field';
import { TemporaryPasswordField } from './temporary-password-field';
import { TemporaryPasswordResult } from './temporary-password-result';

const ID = 'new-user';
const FIELD_ORDER = ['name', 'username', 'email', 'role', 'password', 'masterPassword'] as const;
const USERNAME_HINT = "De 3 a 50 caracteres: letras, números, '.', '-' o '_'. Con él inicia sesión.";
const MASTER_HINT = 'La contraseña maestra propia del nuevo administrador, que se le pedirá en cada inicio de sesión. Al menos 10 caracteres.';

/** 'Nuevo Usuario': the button and its dialog. The form remounts on every opening. */
export function NewUserDialog() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button className="w-full sm:w-auto">
          <UserPlus aria-hidden="true" />
          Nuevo Usuario
        </Button>
      </DialogTrigger>
      <DialogContent
        data-testid="new-user-dialog"
        className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto"
        // A stray click beside the dialog must not throw away a half-typed form or the only view
        // of a generated password.
        onInteractOutside={(e) => e.preventDefault()}
      >
        <NewUserForm onClose={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

function NewUserForm({ onClose }: { onClose: () => void }) {
  const mutation = useCreateUser();
  const [name, setName] = useState('');
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [password, setPassword] = useState('');
  const [generated, setGenerated] = useState(false);
  const [masterPassword, setMasterPassword] = useState('');
  const [errors, setErrors] = useState<UserFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ username: string; password: string } | null>(null);

  const clear = (field: keyof UserFieldErrors) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const found = compactErrors({
      name: validateName(name),
      username: validateUsername(username),
      email: validateEmail(email),
      password: validatePassword(password, username),
      masterPassword: role === 'admin' ? validateMasterPassword(masterPassword, username, password, true) : undefined,
    });
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError(ID, FIELD_ORDER, found);
    try {
      const user = await mutation.mutateAsync({
        name: name.trim(),
        username: username.trim(),
        email: email.trim(),
        role,
        password,
        ...(role === 'admin' ? { masterPassword } : {}),
      });
      toast({ title: 'Usuario creado', description: `${user.name} (@${user.username}) deberá cambiar la contraseña temporal al iniciar sesión.`, variant: 'success' });
      if (generated) setCreated({ username: user.username, password });
      else onClose();
    } catch (error) {
      showSubmitError(error, fieldOfApiError(error), { prefix: ID, order: FIELD_ORDER, setErrors, setFormError });
    }
  }

  if (created) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Usuario creado</DialogTitle>
          <DialogDescription>Entregue la contraseña temporal al usuario.</DialogDescription>
        </DialogHeader>
        <TemporaryPasswordResult username={created.username} password={created.password} />
        <DialogFooter>
          <Button onClick={onClose}>He copiado la contraseña</Button>
        </DialogFooter>
      </>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-busy={mutation.isPending}>
      <DialogHeader>
        <DialogTitle>Nuevo Usuario</DialogTitle>
        <DialogDescription>Nombre, correo, rol y una contraseña temporal que el usuario cambiará al iniciar sesión.</DialogDescription>
      </DialogHeader>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id={`${ID}-name`} label="Nombre completo" error={errors.name}>
          <Input {...fieldAria(`${ID}-name`, { error: errors.name })} autoComplete="off" value={name} onChange={(e) => (setName(e.target.value), clear('name'))} />
        </FormField>
        <FormField id={`${ID}-username`} label="Nombre de usuario" hint={USERNAME_HINT} error={errors.username}>
          <Input
            {...fieldAria(`${ID}-username`, { hint: USERNAME_HINT, error: errors.username })}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            value={username}
            // The server stores usernames in lower case; showing that now avoids a surprise.
            onChange={(e) => (setUsername(e.target.value.toLowerCase()), clear('username'))}
          />
        </FormField>
        <FormField id={`${ID}-email`} label="Correo electrónico" error={errors.email}>
          <Input {...fieldAria(`${ID}-email`, { error: errors.email })} type="email" autoComplete="off" value={email} onChange={(e) => (setEmail(e.target.value), clear('email'))} />
        </FormField>
        <RoleField id={`${ID}-role`} value={role} onChange={(r) => (setRole(r), clear('masterPassword'))} error={errors.role} />
      </div>
      <TemporaryPasswordField
        id={`${ID}-password`}
        value={password}
        generated={generated}
        onChange={(value, isGenerated) => (setPassword(value), setGenerated(isGenerated), clear('password'))}
        error={errors.password}
      />
      {role === 'admin' ? (
        <FormField id={`${ID}-masterPassword`} label="Contraseña Maestra" hint={MASTER_HINT} error={errors.masterPassword}>
          <PasswordInput
            {...fieldAria(`${ID}-masterPassword`, { hint: MASTER_HINT, error: errors.masterPassword })}
            autoComplete="new-password"
            value={masterPassword}
            onChange={(e) => (setMasterPassword(e.target.value), clear('masterPassword'))}
          />
        </FormField>
      ) : null}
      <FormDialogFooter
        error={formError}
        pending={mutation.isPending}
        onCancel={onClose}
        icon={<UserPlus aria-hidden="true" />}
        label="Crear usuario"
        pendingLabel="Creando..."
      />
    </form>
  );
}
