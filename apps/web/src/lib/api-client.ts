/**
 * The one way the browser talks to the server's JSON API: same-origin fetch with the session
 * cookie, every non-2xx turned into an ApiError, and a lost session handled in one place.
 */
import { ERROR_MESSAGES } from '@agua/shared';

export const API_BASE = '/api/v1';

/** UI-only texts for failures that never reached the server's error handler. */
const NETWORK_ERROR_MESSAGE = 'No se pudo conectar con el servidor.';
const UNKNOWN_ERROR_MESSAGE = 'Error inesperado del servidor.';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;

  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

type Handler = () => void;
let onUnauthorized: Handler | null = null;
let onPasswordChangeRequired: Handler | null = null;
let onTotpEnrolmentRequired: Handler | null = null;

/**
 * Registers what to do when the session is gone (401), a password change is forced (403
 * PASSWORD_CHANGE_REQUIRED) or two-factor sign-in must be turned on first (403
 * TOTP_ENROLMENT_REQUIRED). The auth provider registers these, so lib never imports a feature.
 */
export function setSessionHandlers(handlers: { unauthorized: Handler | null; passwordChangeRequired: Handler | null; totpEnrolmentRequired?: Handler | null }): void {
  onUnauthorized = handlers.unauthorized;
  onPasswordChangeRequired = handlers.passwordChangeRequired;
  onTotpEnrolmentRequired = handlers.totpEnrolmentRequired ?? null;
}

// Login and "who am I" answer 401 as part of their normal flow; it must not sign the user out.
const PATHS_WITHOUT_CENTRAL_401 = ['/auth/login', '/auth/me'];

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const url = `${API_BASE}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

async function toApiError(response: Response, path: string): Promise<ApiError> {
  let code = `HTTP_${response.status}`;
  let message = UNKNOWN_ERROR_MESSAGE;
  let details: unknown;
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object') {
      const envelope = body as { error?: unknown; code?: unknown; details?: unknown; message?: unknown };
      if (typeof envelope.code === 'string') code = envelope.code;
      if (typeof envelope.error === 'string') message = envelope.error;
      else if (typeof envelope.message === 'string') message = envelope.message;
      details = envelope.details;
    }
  } catch {
    // Not JSON (a proxy's HTML page, an empty body): keep the generic message.
  }
  if (message === UNKNOWN_ERROR_MESSAGE && code in ERROR_MESSAGES) {
    message = ERROR_MESSAGES[code as keyof typeof ERROR_MESSAGES];
  }
  const error = new ApiError(response.status, code, message, details);
  if (response.status === 401 && !PATHS_WITHOUT_CENTRAL_401.includes(path)) onUnauthorized?.();
  if (response.status === 403 && code === 'PASSWORD_CHANGE_REQUIRED') onPasswordChangeRequired?.();
  if (response.status === 403 && code === 'TOTP_ENROLMENT_REQUIRED') onTotpEnrolmentRequired?.();
  return error;
}

/** Sends a request and returns the raw Response when it is 2xx; throws ApiError otherwise. */
export async function apiFetch(path: string, options: RequestOptions = {}, accept = 'application/json'): Promise<Response> {
  const headers: Record<string, string> = { Accept: accept };
  const init: RequestInit = { method: options.method ?? 'GET', credentials: 'same-origin', headers, signal: options.signal };
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), init);
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, 'NETWORK_ERROR', NETWORK_ERROR_MESSAGE);
  }
  if (!response.ok) throw await toApiError(response, path);
  return response;
}

/** Sends a JSON request and parses the JSON answer (undefined for 204 or an empty body). */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await apiFetch(path, options);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(path: string, query?: RequestOptions['query'], signal?: AbortSignal) => apiRequest<T>(path, { query, signal }),
  post: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'POST', body: body ?? {} }),
  patch: <T>(path: string, body: unknown) => apiRequest<T>(path, { method: 'PATCH', body }),
  put: <T>(path: string, body: unknown) => apiRequest<T>(path, { method: 'PUT', body }),
  delete: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'DELETE', ...(body !== undefined ? { body } : {}) }),
};
