/** Spanish names for the audit trail's actions, results and detail keys (docs/api.md; UI-only texts). */

export const AUDIT_ACTION_GROUPS = [
  {
    label: 'Sesiones',
    actions: {
      'auth.login': 'Inicio de sesión',
      'auth.login_failed': 'Inicio de sesión fallido',
      'auth.logout': 'Cierre de sesión',
      'auth.session_revoked': 'Sesión cerrada por su usuario o un administrador',
      'auth.address_refused': 'Acceso rechazado por la dirección de red',
      'auth.totp_enabled': 'Verificación en dos pasos activada',
      'auth.totp_disabled': 'Verificación en dos pasos desactivada',
      'auth.recovery_code_used': 'Código de recuperación usado',
    },
  },
  {
    label: 'Comandos',
    actions: {
      'command.issued': 'Comando enviado',
      'command.refused': 'Comando rechazado',
      'command.completed': 'Comando completado',
      'command.approved': 'Comando aprobado',
      'command.rejected': 'Comando rechazado por otra persona',
      'command.expired': 'Aprobación caducada',
    },
  },
  {
    label: 'Enclavamientos y programación',
    actions: {
      'interlock.created': 'Enclavamiento creado',
      'interlock.updated': 'Enclavamiento modificado',
      'interlock.deleted': 'Enclavamiento eliminado',
      'interlock.bypassed': 'Enclavamiento anulado',
      'interlock.bypass_ended': 'Anulación terminada',
      'schedule.created': 'Programación creada',
      'schedule.updated': 'Programación modificada',
      'schedule.deleted': 'Programación eliminada',
      'schedule.manual_takeover': 'Control manual tomado',
    },
  },
  {
    label: 'Informes',
    actions: {
      'report.created': 'Informe creado',
      'report.updated': 'Informe modificado',
      'report.deleted': 'Informe eliminado',
    },
  },
  {
    label: 'Dispositivos',
    actions: {
      'device.created': 'Dispositivo creado',
      'device.updated': 'Dispositivo modificado',
      'device.enabled': 'Dispositivo conectado',
      'device.disabled': 'Dispositivo desconectado',
      'device.key_rotated': 'Clave de dispositivo renovada',
      'device.deleted': 'Dispositivo retirado',
      'device.geometry_changed': 'Geometría modificada',
      'device.site_changed': 'Dispositivo asignado a otro sitio',
      'overflow.updated': 'Desbordamiento anotado',
    },
  },
  {
    label: 'Sitios',
    actions: {
      'site.created': 'Sitio creado',
      'site.updated': 'Sitio modificado',
      'site.deleted': 'Sitio eliminado',
      'synoptic.saved': 'Sinóptico guardado',
    },
  },
  {
    label: 'Alarmas',
    actions: {
      'alarm.rule_updated': 'Regla de alarma modificada',
      'alarm.acked': 'Alarma reconocida',
      'alarm.shelved': 'Alarma suspendida',
      'alarm.unshelved': 'Suspensión levantada',
    },
  },
  {
    label: 'Notificaciones',
    actions: {
      'webhook.created': 'Webhook creado',
      'webhook.updated': 'Webhook modificado',
      'webhook.deleted': 'Webhook eliminado',
      'escalation.updated': 'Escalada modificada',
    },
  },
  {
    label: 'Usuarios',
    actions: {
      'user.created': 'Usuario creado',
      'user.updated': 'Usuario modificado',
      'user.deleted': 'Usuario eliminado',
      'user.password_reset': 'Contraseña restablecida',
      'user.password_changed': 'Contraseña cambiada',
      'user.totp_reset': 'Verificación en dos pasos restablecida',
      'settings.updated': 'Ajustes modificados',
    },
  },
] as const;

export const AUDIT_ACTION_LABELS: Readonly<Record<string, string>> = Object.assign({}, ...AUDIT_ACTION_GROUPS.map((g) => g.actions));

export function isAuditAction(value: string): boolean {
  return Object.hasOwn(AUDIT_ACTION_LABELS, value);
}

export const AUDIT_RESULTS = {
  ok: { label: 'Correcto', tone: 'ok' },
  denied: { label: 'Denegado', tone: 'warn' },
  failed: { label: 'Fallido', tone: 'crit' },
} as const;

export const DETAIL_LABELS: Readonly<Record<string, string>> = {
  command: 'Comando',
  commandId: 'ID de comando',
  code: 'Código',
  status: 'Estado',
  message: 'Mensaje',
  late: 'Tardío',
  reason: 'Motivo',
  changes: 'Cambios',
  fields: 'Campos',
  role: 'Rol',
  enabled: 'Habilitado',
  comment: 'Comentario',
  overrides: 'Enclavamientos superados',
  interlockIds: 'Enclavamientos',
  scheduleId: 'Programación',
  minutes: 'Minutos',
  until: 'Hasta',
  name: 'Nombre',
  session: 'Sesión',
  username: 'Usuario',
  wasEnabled: 'Estaba activada',
  totpRequiredRoles: 'Roles con verificación en dos pasos',
  route: 'Ruta',
};
