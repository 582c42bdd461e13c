import {
  EMAIL_MAX_LENGTH,
  EMAIL_REGEX,
  ERROR_MESSAGES,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PERSON_NAME_MAX_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_REGEX,
} from '@agua/shared';

/** Fields of the user forms that can carry an inline error. */
export type UserField = 'name' | 'username' | 'email' | 'role' | 'status' | 'password' | 'masterPassword' | 'currentMasterPassword';
export type UserFieldErrors = Partial<Record<UserField, string>>;


export function validateName(name: string): string | undefined {
  if (!name.trim()) return 'El nombre es obligatorio.';
  if (name.trim().length > PERSON_NAME_MAX_LENGTH) return `El nombre admite como máximo ${PERSON_NAME_MAX_LENGTH} caracteres.`;
  return undefined;
}

export function validateUsername(username: string): string | undefined {
  if (!username.trim()) return 'El nombre de usuario es obligatorio.';
  if (!USERNAME_REGEX.test(username.trim())) return `Use de ${USERNAME_MIN_LENGTH} a ${USERNAME_MAX_LENGTH} caracteres: letras sin tilde, números, punto, guion o guion bajo.`;
  return undefined;
}

export function validateEmail(email: string): string | undefined {
  if (!email.trim()) return 'El correo electrónico es obligatorio.';
  if (email.trim().length > EMAIL_MAX_LENGTH || !EMAIL_REGEX.test(email.trim())) return 'Introduzca un correo electrónico válido (p. ej. nombre@dominio.es).';
  return undefined;
}

/** The password policy (docs/api.md), with a message that names the rule that failed. */
export function validatePassword(password: string, username: string): string | undefined {
  if (!password) return 'La contraseña temporal es obligatoria.';
  if ([...password].length < PASSWORD_MIN_LENGTH) return `La contraseña debe tener al menos ${PASSWORD_MIN_LENGTH} caracteres.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `La contraseña admite como máximo ${PASSWORD_MAX_LENGTH} caracteres.`;
  if (!password.trim()) return ERROR_MESSAGES.PASSWORD_BLANK;
  if (username.trim() && password.trim().toLowerCase() === username.trim().toLowerCase()) return 'La contraseña no puede ser el nombre de usuario.';
  return undefined;
}

/**
 * An admin's master password is a second secret: the same policy as passwords, and (a rule of
 * this form, not the server's) different from the password it accompanies, or it adds nothing.
 */
export function validateMasterPassword(master: string, username: string, password: string | null, required: boolean): string | undefined {
  if (!master) return required ? 'La Contraseña Maestra es obligatoria para un administrador.' : undefined;
  if ([...master].length < PASSWORD_MIN_LENGTH) return `La Contraseña Maestra debe tener al menos ${PASSWORD_MIN_LENGTH} caracteres.`;
  if (master.length > PASSWORD_MAX_LENGTH) return `La Contraseña Maestra admite como máximo ${PASSWORD_MAX_LENGTH} caracteres.`;
  if (!master.trim()) return 'La Contraseña Maestra no puede estar formada solo por espacios en blanco.';
  if (username.trim() && master.trim().toLowerCase() === username.trim().toLowerCase()) return 'La Contraseña Maestra no puede ser el nombre de usuario.';
  if (password && master === password) return 'La Contraseña Maestra debe ser distinta de la contraseña.';
  return undefined;
}

/** Drops the fields without an error, so that `Object.keys(errors).length` says whether to submit. */
export function compactErrors(errors: UserFieldErrors): UserFieldErrors {
  return Object.fromEntries(Object.entries(errors).filter(([, v]) => v)) as UserFieldErrors;
}
