/* eslint-disable @typescript-eslint/no-explicit-any */
// Helpers for the commands, users and device-admin API tests: real HTTP against a TestServer,
// with a real client acting as the device (its key, not a session).
import { expect } from 'vitest';
import type { Command, DeviceCommand } from '@agua/shared';
import { demoKey, sessionCookieOf, type TestServer } from './server';
import { sleep } from './protocol';

/** A command as the API shows it, and as a device receives it (docs/protocol.md "Commands"): the shared types. */
export type ApiCommand = Command;
export type DeviceCommandMsg = DeviceCommand;

export interface AuditEvent {
  id: string;
  at: string;
  action: string;
  userId: string | null;
  username: string | null;
  target: string | null;
  result: 'ok' | 'denied' | 'failed';
  ip: string | null;
  details: Record<string, unknown> | null;
}

export const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Reads a JSON body (or null for an empty one) together with the status. */
export async function jsonOf<T = any>(res: Response): Promise<{ status: number; body: T }> {
  const text = await res.text();
  return { status: res.status, body: (text.length > 0 ? JSON.parse(text) : null) as T };
}

/**
 * Asserts the API's error envelope: the status, JSON `{error, code, details?}` and nothing else, a
 * Spanish text, the code when given and the exact text when given; returns the body.
 */
export async function expectApiError(res: Response, status: number, code?: string, message?: string): Promise<Record<string, unknown>> {
  const text = await res.text();
  expect({ status: res.status, body: text }).toMatchObject({ status });
  expect(res.headers.get('content-type') ?? '').toMatch(/application\/json/);
  const body = JSON.parse(text) as Record<string, unknown>;
  for (const key of Object.keys(body)) expect(['error', 'code', 'details']).toContain(key);
  expect(typeof body.error).toBe('string');
  expect((body.error as string).length).toBeGreaterThan(0);
  if (code !== undefined) expect(body.code).toBe(code);
  if (message !== undefined) expect(body.error).toBe(message);
  return body;
}

/** POST /api/v1/devices/{id}/commands as a signed-in user. */
export function issueCommand(s: TestServer, cookie: string, deviceId: string, command: unknown): Promise<Response> {
  return s.fetch(`/api/v1/devices/${encodeURIComponent(deviceId)}/commands`, { method: 'POST', cookie, json: { command } });
}

/** Issues a command and expects 202; returns the command id. */
export async function issueOk(s: TestServer, cookie: string, deviceId: string, command: string): Promise<string> {
  const res = await issueCommand(s, cookie, deviceId, command);
  const { status, body } = await jsonOf<{ success: boolean; message: string; commandId: string }>(res);
  expect({ status, body }).toMatchObject({ status: 202, body: { success: true, message: `Comando "${command}" enviado exitosamente` } });
  expect(typeof body.commandId).toBe('string');
  return body.commandId;
}

export async function getCommand(s: TestServer, cookie: string, id: string): Promise<ApiCommand> {
  const res = await s.fetch(`/api/v1/commands/${encodeURIComponent(id)}`, { cookie });
  const { status, body } = await jsonOf<ApiCommand>(res);
  if (status !== 200) throw new Error(`GET /api/v1/commands/${id}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/** Polls GET /api/v1/commands/{id} until its status is `status`; returns it and the time it took. */
export async function waitForCommandStatus(
  s: TestServer,
  cookie: string,
  id: string,
  status: ApiCommand['status'],
  timeoutMs = 3000,
): Promise<ApiCommand> {
  const deadline = Date.now() + timeoutMs;
  let last: ApiCommand;
  for (;;) {
    last = await getCommand(s, cookie, id);
    if (last.status === status) return last;
    if (Date.now() > deadline) throw new Error(`command ${id} is ${last.status}, not ${status}, after ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** GET /api/v1/devices/{id}/commands (long poll) with a device key; abortable. */
export function longPoll(
  s: TestServer,
  deviceId: string,
  opts: { wait?: string; key?: string | null; signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== null) headers['x-api-key'] = opts.key ?? demoKey(deviceId);
  const qs = opts.wait === undefined ? '' : `?wait=${encodeURIComponent(opts.wait)}`;
  return fetch(`${s.url}/api/v1/devices/${encodeURIComponent(deviceId)}/commands${qs}`, {
    headers,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}

/** POST /api/v1/devices/{id}/commands/{commandId}/ack with a device key. */
export function ackHttp(
  s: TestServer,
  deviceId: string,
  commandId: string,
  body: unknown,
  opts: { key?: string | null; raw?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.key !== null) headers['x-api-key'] = opts.key ?? demoKey(deviceId);
  return fetch(`${s.url}/api/v1/devices/${encodeURIComponent(deviceId)}/commands/${encodeURIComponent(commandId)}/ack`, {
    method: 'POST',
    headers,
    body: opts.raw ?? JSON.stringify(body),
  });
}

/** A page of audit events as an admin. */
export async function auditPage(s: TestServer, adminCookie: string, query: Record<string, string> = {}): Promise<AuditEvent[]> {
  const qs = new URLSearchParams({ limit: '500', ...query }).toString();
  const res = await s.fetch(`/api/v1/audit?${qs}`, { cookie: adminCookie });
  const { status, body } = await jsonOf<{ items: AuditEvent[]; nextCursor: string | null }>(res);
  if (status !== 200) throw new Error(`GET /api/v1/audit: ${status} ${JSON.stringify(body)}`);
  return body.items;
}

/** POST /api/v1/auth/login with any body; returns the response (the caller checks it). */
export function login(s: TestServer, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return s.fetch('/api/v1/auth/login', { method: 'POST', json: body, headers });
}

/** Signs in and returns the session cookie; throws unless 200. */
export async function loginCookie(s: TestServer, body: { username: string; password: string; masterPassword?: string }): Promise<string> {
  const res = await login(s, body);
  if (res.status !== 200) throw new Error(`login as ${body.username}: ${res.status} ${await res.text()}`);
  return sessionCookieOf(res);
}

/** Admin POST /api/v1/devices; expects 201; returns the API key and the device. */
export async function createDevice(
  s: TestServer,
  adminCookie: string,
  body: Record<string, unknown>,
): Promise<{ apiKey: string; device: Record<string, any> }> {
  const res = await s.fetch('/api/v1/devices', { method: 'POST', cookie: adminCookie, json: body });
  const { status, body: out } = await jsonOf<{ apiKey: string; device: Record<string, any> }>(res);
  if (status !== 201) throw new Error(`POST /api/v1/devices: ${status} ${JSON.stringify(out)}`);
  return out;
}
