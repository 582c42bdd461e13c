import { DeliveryError } from './channel';

/**
 * Socket and SMTP error codes in the delivery log's words. The log is read by admins and says
 * what went wrong, never where: a raw socket error ('connect ECONNREFUSED 10.0.0.7:5432'), an
 * address or a TLS detail would turn push subscriptions and webhooks into a port scanner.
 */
const CODE_REASONS: Record<string, string> = {
  ECONNREFUSED: 'conexión rechazada',
  ECONNRESET: 'conexión cortada',
  EPIPE: 'conexión cortada',
  ECONNECTION: 'conexión cortada',
  ENOTFOUND: 'nombre no encontrado',
  EAI_AGAIN: 'nombre no encontrado',
  EAI_FAIL: 'nombre no encontrado',
  EDNS: 'nombre no encontrado',
  EHOSTUNREACH: 'destino inalcanzable',
  ENETUNREACH: 'destino inalcanzable',
  EADDRNOTAVAIL: 'destino inalcanzable',
  ETIMEDOUT: 'sin respuesta en el plazo',
  EAUTH: 'el servidor de correo rechazó las credenciales',
  EENVELOPE: 'el servidor de correo rechazó el remitente o el destinatario',
  EMESSAGE: 'el servidor de correo rechazó el mensaje',
  EPROTOCOL: 'respuesta no válida del servidor',
};

/** TLS failures, whatever the detail (certificate, protocol, handshake): the log says only that. */
const TLS_CODE = /^(ETLS|EPROTO|ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/;

/** The delivery log's words for why an attempt failed (the `lastError` of a delivery). */
export function attemptReason(err: unknown): string {
  if (err instanceof DeliveryError) return err.message;
  const e = err as { name?: string; code?: unknown; cause?: { code?: unknown } } | null;
  if (e?.name === 'AbortError' || e?.name === 'TimeoutError') return 'sin respuesta en el plazo';
  const code = typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : '';
  if (CODE_REASONS[code]) return CODE_REASONS[code];
  if (TLS_CODE.test(code)) return 'fallo de TLS';
  // node:http's parser (HPE_…): the receiver's answer was not HTTP.
  if (code.startsWith('HPE_')) return 'respuesta no válida del servidor';
  return 'error de envío';
}

/** The raw error, for the server's own log (operators), never the delivery log. */
export function attemptDetail(err: unknown): string {
  const e = err as { message?: string; code?: unknown } | null;
  const text = e?.message ?? String(err);
  return (typeof e?.code === 'string' && !text.includes(e.code) ? `${text} (${e.code})` : text).slice(0, 500);
}
