import { ESCALATION_LIMITS, type AlarmPriority, type EscalationPolicy } from '@agua/shared';

/** What the 'Escalada' form holds (inputs give strings; '' repeat = no repeat). */
export interface EscalationFormValues {
  maxPriority: string;
  afterMin: string;
  repeatMin: string;
  userIds: string[];
  webhookIds: string[];
}

export type EscalationField = 'maxPriority' | 'afterMin' | 'repeatMin' | 'userIds' | 'webhookIds';
export type EscalationFieldErrors = Partial<Record<EscalationField, string>>;

const MAX = ESCALATION_LIMITS.minutesMax;

/** Whole minutes 1–1440, or null for anything else. */
function minutes(raw: string): number | null {
  const text = raw.trim();
  if (!/^\d{1,5}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= MAX ? n : null;
}

/** The form's values from a policy. */
export function toEscalationForm(policy: EscalationPolicy): EscalationFormValues {
  return {
    maxPriority: String(policy.maxPriority),
    afterMin: String(policy.afterMin),
    repeatMin: policy.repeatMin === null ? '' : String(policy.repeatMin),
    userIds: [...policy.userIds],
    webhookIds: [...policy.webhookIds],
  };
}

/**
 * Checks the form; on success, the body of PUT /notifications/escalation. `known` drops targets
 * that no longer exist or can no longer be chosen (a deleted webhook, a deactivated user): the
 * server refuses a policy that names them, and the form cannot show them to be unticked.
 */
export function validateEscalation(
  values: EscalationFormValues,
  known?: { userIds: ReadonlySet<string>; webhookIds: ReadonlySet<string> },
): { policy: EscalationPolicy } | { errors: EscalationFieldErrors } {
  const errors: EscalationFieldErrors = {};
  const maxPriority = Number(values.maxPriority);
  if (![1, 2, 3, 4].includes(maxPriority)) errors.maxPriority = 'Elija una prioridad.';
  const afterMin = minutes(values.afterMin);
  if (!values.afterMin.trim()) errors.afterMin = 'Indique los minutos sin reconocer.';
  else if (afterMin === null) errors.afterMin = `Los minutos sin reconocer deben ser un número entero entre 1 y ${MAX}.`;
  const repeatMin = values.repeatMin.trim() ? minutes(values.repeatMin) : null;
  if (values.repeatMin.trim() && repeatMin === null) errors.repeatMin = `Repetir cada: un número entero de minutos entre 1 y ${MAX}, o vacío para no repetir.`;
  const userIds = [...new Set(values.userIds)].filter((id) => !known || known.userIds.has(id));
  const webhookIds = [...new Set(values.webhookIds)].filter((id) => !known || known.webhookIds.has(id));
  if (userIds.length > ESCALATION_LIMITS.targetsMax) errors.userIds = `Elija como máximo ${ESCALATION_LIMITS.targetsMax} usuarios.`;
  if (webhookIds.length > ESCALATION_LIMITS.targetsMax) errors.webhookIds = `Elija como máximo ${ESCALATION_LIMITS.targetsMax} webhooks.`;
  if (Object.keys(errors).length > 0 || afterMin === null) return { errors };
  return { policy: { maxPriority: maxPriority as AlarmPriority, afterMin, repeatMin, userIds, webhookIds } };
}
