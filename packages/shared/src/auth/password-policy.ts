import { PASSWORD_MIN_LENGTH } from '../constants';

/**
 * Why a password breaks the policy (docs/api.md: at least 10 characters and not the username), or null
 * when it meets it. Ten spaces are ten characters but no secret: whitespace alone is refused too.
 */
export function passwordPolicyError(username: string, password: string): 'PASSWORD_POLICY' | 'PASSWORD_BLANK' | null {
  if ([...password].length < PASSWORD_MIN_LENGTH) return 'PASSWORD_POLICY';
  if (password.trim() === '') return 'PASSWORD_BLANK';
  if (password.trim().toLowerCase() === username.trim().toLowerCase()) return 'PASSWORD_POLICY';
  return null;
}

/** Whether a password meets the policy (see passwordPolicyError). */
export function meetsPasswordPolicy(username: string, password: string): boolean {
  return passwordPolicyError(username, password) === null;
}
