import { PASSWORD_MIN_LENGTH } from '../constants';

/** Whether a password meets the policy (API.md): at least 10 characters and not the username. */
export function meetsPasswordPolicy(username: string, password: string): boolean {
  if ([...password].length < PASSWORD_MIN_LENGTH) return false;
  return password.trim().toLowerCase() !== username.trim().toLowerCase();
}
