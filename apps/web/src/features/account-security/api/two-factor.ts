import { useMutation } from '@tanstack/react-query';
import type { TotpEnabled, TotpSetup } from '@agua/shared';
import { api } from '@/lib/api-client';

/** POST /auth/totp/setup: a new secret and its otpauth:// URL (replaces one set up and not confirmed). */
export function postTotpSetup(): Promise<TotpSetup> {
  return api.post<TotpSetup>('/auth/totp/setup');
}

/** POST /auth/totp/enable {code}: turns it on; the ten recovery codes come back this once. */
export function postTotpEnable(code: string): Promise<TotpEnabled> {
  return api.post<TotpEnabled>('/auth/totp/enable', { code });
}

/** DELETE /auth/totp {password, code}: 204; 422 REAUTH_FAILED, 409 TOTP_REQUIRED_BY_ROLE. */
export function deleteTotp(body: { password: string; code: string }): Promise<void> {
  return api.delete<void>('/auth/totp', body);
}

export function useTotpSetup() {
  return useMutation({ mutationFn: postTotpSetup });
}

export function useTotpEnable() {
  return useMutation({ mutationFn: postTotpEnable });
}

export function useTotpDisable() {
  return useMutation({ mutationFn: deleteTotp });
}
