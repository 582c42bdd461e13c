/**
 * Spanish texts a person reads, keyed by machine code. The server sends `error` from here and the
 * web app shows these texts; seed texts are kept to the letter.
 */
export const ERROR_MESSAGES = {
  // Sign-in (docs/api.md, seed error catalogue)
  TOO_MANY_ATTEMPTS: 'Demasiados intentos fallidos. Intente de nuevo más tarde.',
  INVALID_CREDENTIALS: 'Credenciales de usuario inválidas',
  USER_INACTIVE: 'Usuario inactivo. Contacte al administrador.',
  MASTER_PASSWORD_REQUIRED: 'Se requiere la Contraseña Maestra',
  MASTER_PASSWORD_INVALID: 'Contraseña Maestra incorrecta',
  PASSWORD_CHANGE_REQUIRED: 'Debe cambiar su contraseña antes de continuar.',
  UNAUTHENTICATED: 'Sesión no válida o expirada. Inicie sesión de nuevo.',
  FORBIDDEN: 'No tienes permisos para esta acción.',
  CSRF_REJECTED: 'Origen de la solicitud no permitido.',
  // Generic
  VALIDATION_FAILED: 'Datos de la solicitud no válidos.',
  INVALID_VALUE: 'Valor no válido.',
  NOT_FOUND: 'Recurso no encontrado.',
  ROUTE_NOT_FOUND: 'Ruta no encontrada.',
  PAYLOAD_TOO_LARGE: 'El cuerpo de la solicitud es demasiado grande.',
  UNSUPPORTED_MEDIA_TYPE: 'El tipo de contenido debe ser application/json.',
  INVALID_JSON: 'El cuerpo de la solicitud no es JSON válido.',
  RATE_LIMITED: 'Demasiadas solicitudes. Intente de nuevo en un momento.',
  TOO_MANY_LIVE_SOCKETS: 'Demasiadas conexiones en vivo abiertas con esta sesión. Cierre otras pestañas.',
  INTERNAL_ERROR: 'Error interno del servidor.',
  SERVICE_UNAVAILABLE: 'Servicio no disponible.',
  // Requests the HTTP layer refuses before any route sees them
  BAD_REQUEST: 'Solicitud HTTP mal formada.',
  INVALID_URL: 'La URL de la solicitud no es válida.',
  URL_TOO_LONG: 'La URL de la solicitud es demasiado larga.',
  HEADERS_TOO_LARGE: 'La URL o las cabeceras de la solicitud son demasiado largas.',
  REQUEST_TIMEOUT: 'La solicitud tardó demasiado en llegar.',
  EXPECTATION_FAILED: 'La cabecera Expect no es compatible.',
  // Storage
  STORAGE_FULL: 'Almacenamiento lleno: no se pudo guardar. Intente de nuevo más tarde.',
  STORAGE_UNAVAILABLE: 'Almacenamiento no disponible: no se pudo guardar. Intente de nuevo más tarde.',
  // Devices and telemetry (docs/protocol.md)
  DEVICE_KEY_MISSING: 'Falta la clave API del dispositivo.',
  DEVICE_KEY_INVALID: 'Clave API del dispositivo no válida.',
  DEVICE_DISABLED: 'El dispositivo está deshabilitado.',
  DEVICE_NOT_FOUND: 'Dispositivo no encontrado.',
  DEVICE_ID_MISMATCH: 'El deviceId no corresponde a la clave API.',
  DEVICE_ID_TAKEN: 'Ya existe un dispositivo con ese identificador.',
  DEVICE_OFFLINE: 'El dispositivo no está en línea.',
  BATCH_TOO_LARGE: 'El lote supera el máximo de 500 mensajes.',
  BATCH_EMPTY: 'El lote está vacío.',
  MESSAGE_INVALID: 'Mensaje con formato no válido.',
  TYPE_MISMATCH: 'El tipo no corresponde al dispositivo.',
  VALUE_INVALID: 'Valor de lectura no válido.',
  UNIT_INVALID: 'Unidad no válida: debe ser "m".',
  TS_INVALID: 'Marca de tiempo no válida: use ISO 8601 con zona horaria o milisegundos Unix.',
  TS_IN_FUTURE: 'La marca de tiempo está más de 5 minutos en el futuro.',
  TS_LOOKS_LIKE_SECONDS: 'La marca de tiempo parece estar en segundos; use milisegundos Unix.',
  TS_TOO_OLD: 'La marca de tiempo es anterior al 1 de enero de 2000: revise el reloj del equipo.',
  SEQ_INVALID: 'El campo seq debe ser un entero no negativo.',
  BOOT_INVALID: 'El campo boot debe ser un texto corto.',
  // Commands
  COMMAND_INVALID: 'Comando no válido para este tipo de dispositivo.',
  COMMAND_IN_PROGRESS: 'Ya hay un comando en curso para este dispositivo.',
  COMMAND_NOT_FOUND: 'Comando no encontrado.',
  // Interlocks and two-person commands (docs/control.md)
  ADDRESS_NOT_ALLOWED: 'Acceso no permitido desde esta dirección de red.',
  SESSION_NOT_FOUND: 'Sesión no encontrada.',
  INTERLOCKED: 'Comando bloqueado por un enclavamiento.',
  COMMENT_REQUIRED: 'Este comando requiere un comentario.',
  REAUTH_REQUIRED: 'Este comando requiere su contraseña.',
  REAUTH_FAILED: 'Contraseña incorrecta.',
  SELF_APPROVAL: 'No puede aprobar su propio comando.',
  COMMAND_NOT_AWAITING_APPROVAL: 'El comando no está en espera de aprobación.',
  SCHEDULE_ACTIVE: 'La compuerta sigue una programación.',
  INTERLOCK_INVALID: 'Enclavamiento no válido.',
  SCHEDULE_INVALID: 'Programación no válida.',
  SCHEDULE_NOT_FOUND: 'Programación no encontrada.',
  INTERLOCK_NOT_FOUND: 'Enclavamiento no encontrado.',
  VERSION_CONFLICT: 'Otra persona cambió este elemento; vuelva a cargarlo.',
  // Alarms
  ALARM_RULE_NOT_FOUND: 'Regla de alarma no encontrada.',
  ALARM_RULE_INVALID: 'Valores de la regla de alarma no posibles.',
  ALARM_NOT_FOUND: 'Alarma no encontrada.',
  ALARM_NOT_ACKABLE: 'La alarma no está pendiente de reconocimiento.',
  ALARM_NOT_SHELVED: 'La alarma no está suspendida.',
  ALARM_NOT_SHELVABLE: 'Solo se puede suspender una alarma abierta.',
  SHELVE_CRITICAL_FORBIDDEN: 'Solo un administrador puede suspender una alarma Crítica.',
  // Water
  GEOMETRY_INVALID: 'Geometría o calibración no válida.',
  TOO_MANY_BUCKETS: 'El rango pide más de 10.000 intervalos: elija un paso mayor o un rango más corto.',
  TOO_MANY_DAYS: 'El rango pide más de 366 días: elija un rango más corto.',
  GEOMETRY_CONFLICT: 'Otra persona guardó la geometría al mismo tiempo; vuelva a intentarlo.',
  OVERFLOW_EVENT_NOT_FOUND: 'Desbordamiento no encontrado.',
  // Reports
  REPORT_NOT_FOUND: 'Informe no encontrado.',
  REPORT_RUN_NOT_FOUND: 'Ejecución de informe no encontrada.',
  REPORT_NOT_READY: 'El informe aún no está listo: espere a que termine de generarse.',
  REPORT_FORMAT_NOT_GENERATED: 'Esta ejecución no generó ese formato.',
  REPORT_SCHEDULE_INVALID: 'La programación no encaja con el tipo: semanal necesita el día de la semana; mensual y desbordamientos, el día del mes.',
  REPORT_RECIPIENT_UNKNOWN: 'Un destinatario no es un usuario ni una dirección de correo válida.',
  PERIOD_TOO_LONG: 'El periodo de un informe no puede pasar de 366 días.',
  REPORT_QUEUE_FULL: 'Hay demasiados informes en preparación. Espere a que terminen y vuelva a intentarlo.',
  PERIOD_IN_FUTURE: 'El periodo empieza en el futuro: no hay datos que informar.',
  NOTIFIED_AT_IN_FUTURE: 'La fecha de aviso a la autoridad no puede ser futura.',
  // Notifications
  WEBHOOK_NOT_FOUND: 'Webhook no encontrado.',
  WEBHOOK_URL_INVALID: 'La URL del webhook debe ser http:// o https:// con un servidor.',
  WEBHOOK_CHAT_ID_REQUIRED: 'Un webhook de Telegram necesita el chat_id.',
  WEBHOOK_URL_NOT_ALLOWED: 'La URL del webhook apunta a una dirección no permitida (enlace local o metadatos de la nube).',
  PUSH_ENDPOINT_INVALID: 'La suscripción push debe apuntar a un servicio https://.',
  PUSH_ENDPOINT_NOT_ALLOWED: 'La suscripción push debe apuntar a un servicio push público.',
  PUSH_ENDPOINT_TAKEN: 'Esta suscripción push pertenece a otro usuario.',
  PUSH_SUBSCRIPTION_NOT_FOUND: 'Este navegador no tiene las notificaciones push activadas.',
  CHANNEL_NOT_CONFIGURED: 'Ese canal no está configurado en el servidor.',
  ESCALATION_TARGET_UNKNOWN: 'La escalada nombra un usuario o webhook que no existe.',
  TEST_SEND_RATE_LIMITED: 'Demasiados envíos de prueba. Espere un momento antes de volver a probar.',
  // Users
  USERNAME_TAKEN: 'El nombre de usuario ya existe.',
  EMAIL_TAKEN: 'El correo electrónico ya está en uso.',
  PASSWORD_POLICY: 'La contraseña debe tener al menos 10 caracteres y no puede ser el nombre de usuario.',
  PASSWORD_BLANK: 'La contraseña no puede estar formada solo por espacios en blanco.',
  PASSWORD_CURRENT_INVALID: 'La contraseña actual no es correcta.',
  MASTER_PASSWORD_CURRENT_INVALID: 'La Contraseña Maestra actual no es correcta.',
  LAST_ADMIN: 'No se puede eliminar, desactivar ni degradar al último administrador activo.',
  USER_NOT_FOUND: 'Usuario no encontrado.',
  // Two-factor sign-in and server settings (docs/security.md)
  TOTP_REQUIRED: 'Se requiere el código de verificación',
  TOTP_INVALID: 'Código de verificación incorrecto',
  TOTP_ENROLMENT_REQUIRED: 'Debe activar la verificación en dos pasos antes de continuar.',
  TOTP_ALREADY_ENABLED: 'La verificación en dos pasos ya está activada.',
  TOTP_NOT_SET_UP: 'Primero genere el código QR de la verificación en dos pasos.',
  TOTP_NOT_ENABLED: 'La verificación en dos pasos no está activada.',
  TOTP_REQUIRED_BY_ROLE: 'Su rol exige la verificación en dos pasos: no puede desactivarla.',
  SETTINGS_INVALID: 'Ajustes no válidos.',
  // Export
  NO_DATA: 'No hay lecturas para exportar en ese rango.',
  RANGE_INVALID: 'Rango de tiempo no válido: "from" debe ser anterior a "to".',
  TIME_OUT_OF_RANGE: 'Fecha fuera del intervalo admitido: entre los años 0000 y 9999 (UTC).',
  // Sites
  SITE_NOT_FOUND: 'Sitio no encontrado.',
  SITE_INVALID: 'Sitio no válido.',
  SITE_NAME_TAKEN: 'Ya existe un sitio con ese nombre.',
  SITE_HAS_CHILDREN: 'El sitio tiene sitios dentro: muévalos o elimínelos primero.',
  SYNOPTIC_INVALID: 'Sinóptico no válido.',
  SYNOPTIC_VERSION_NOT_FOUND: 'Versión del sinóptico no encontrada.',
  SVG_TOO_LARGE: 'El fondo SVG supera los 2 MB.',
} as const;

export type ErrorCode = keyof typeof ERROR_MESSAGES;

/** Spanish text for an error code. */
export function errorMessage(code: ErrorCode): string {
  return ERROR_MESSAGES[code];
}

/** Texts of the seed's UI contract that are shown as toasts or pages. */
export const UI_TEXTS = {
  loginErrorTitle: 'Error de Autenticación',
  loginSuccessTitle: '¡Acceso Concedido!',
  loginSuccessDescription: 'Bienvenido al sistema de monitoreo IoT',
  accessDeniedTitle: 'Acceso Denegado',
  accessDeniedPage: 'No tienes permisos para acceder a esta sección.',
  dashboardCommandDenied: 'No tienes permisos para esta acción.',
  devicesCommandDenied: 'No tienes permisos para ejecutar comandos.',
  toggleDenied: 'No tienes permisos para conectar o desconectar dispositivos.',
  commandSentTitle: 'Comando Enviado',
  commandExecutedTitle: 'Comando Ejecutado',
  deviceToggledTitle: 'Estado del Dispositivo Cambiado',
  deviceToggledDescription: 'El dispositivo ha sido actualizado',
  exportSuccessTitle: 'Exportación Exitosa',
  exportSuccessDescription: 'Los datos han sido exportados a Excel.',
  exportErrorTitle: 'Error de Exportación',
  exportErrorDescription: 'No se pudo generar el archivo Excel.',
  exportNoDataTitle: 'Sin datos',
  useAuthOutsideProvider: 'useAuth debe ser usado dentro de AuthProvider',
  useDevicesOutsideProvider: 'useDevices debe ser usado dentro de DeviceProvider',
  routingErrorTitle: 'Unexpected Application Error!',
} as const;

/** The seed's success message of an accepted command. */
export function commandSentMessage(command: string): string {
  return `Comando "${command}" enviado exitosamente`;
}
