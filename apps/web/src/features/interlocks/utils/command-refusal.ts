import type { InterlockReason } from '@agua/shared';
import { isApiError } from '@/lib/api-client';

/** Where a refused command's answer is shown in its dialog. */
export type RefusalField = 'comment' | 'password' | null;

export interface Refusal {
  /** The server's Spanish words. */
  message: string;
  /** The interlocks' reasons the answer carries (INTERLOCKED, COMMENT_REQUIRED, REAUTH_REQUIRED). */
  reasons: InterlockReason[];
  /** The field the answer is about; null: above the buttons. */
  field: RefusalField;
  /** A demand the check before had not shown (the state changed since): the field appears. */
  demands: { comment: boolean; password: boolean };
  /** 403: the role may not command; said as the screen always said it. */
  forbidden: boolean;
  /** 409 SCHEDULE_ACTIVE: the gate follows a schedule; the person may take it ('Tomar control manual'). */
  scheduleActive: boolean;
}

function reasonsOf(details: unknown): InterlockReason[] {
  const reasons = (details as { reasons?: unknown } | null | undefined)?.reasons;
  return Array.isArray(reasons) ? (reasons as InterlockReason[]).filter((r) => typeof r?.message === 'string') : [];
}

/**
 * A command's refusal, read for its dialog: the dialog stays open with what was typed (the
 * password excepted), the answer beside the field it is about and the reasons listed.
 */
export function readRefusal(error: unknown): Refusal {
  const none = { comment: false, password: false };
  if (!isApiError(error)) return { message: error instanceof Error ? error.message : String(error), reasons: [], field: null, demands: none, forbidden: false, scheduleActive: false };
  const base = { message: error.message, reasons: reasonsOf(error.details), forbidden: false, scheduleActive: false };
  switch (error.code) {
    case 'COMMENT_REQUIRED':
      return { ...base, field: 'comment', demands: { comment: true, password: false } };
    case 'REAUTH_REQUIRED':
    case 'REAUTH_FAILED':
      return { ...base, field: 'password', demands: { comment: false, password: true } };
    case 'TOO_MANY_ATTEMPTS':
      return { ...base, field: null, demands: { comment: false, password: true } };
    case 'SCHEDULE_ACTIVE':
      return { ...base, field: null, demands: none, scheduleActive: true };
    default:
      return { ...base, field: null, demands: none, forbidden: error.status === 403 && error.code !== 'SELF_APPROVAL' };
  }
}
