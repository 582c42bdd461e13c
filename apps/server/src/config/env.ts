import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { AddressAllowlist } from '../lib/address-allowlist';
import { DEFAULT_OFFLINE_AFTER_S, INTERLOCK_LIMITS, SHELVE_CRITICAL_ACCESS, type ShelveCriticalAccess } from '@agua/shared';

/**
 * Configuration, parsed once at boot from the environment (docs/product.md "Configuration").
 * Nothing else reads process.env. A bad value stops the start with a message naming the variable.
 */
export interface Config {
  port: number;
  host: string;
  mqttPort: number;
  dataDir: string;
  /** PostgreSQL (DATABASE_URL, postgres://…); null = SQLite in DATA_DIR. */
  databaseUrl: string | null;
  /** redis://… (REDIS_URL): several instances share live events, device connections and commands. */
  redisUrl: string | null;
  demo: boolean;
  simulate: boolean;
  /** Seed of the demo simulation's water models (SIMULATOR_SEED): the same levels on every run; random when null. */
  simulatorSeed: number | null;
  /** The demo gate faults now and then by itself (SIMULATOR_GATE_FAULTS, default true). */
  simulatorGateFaults: boolean;
  deviceOfflineAfterS: number;
  deviceRateLimit: number;
  commandTimeoutS: number;
  /** A two-person command waits this long for its approval (docs/control.md). */
  approvalTimeoutS: number;
  sessionTtlH: number;
  loginMaxFailuresPerUser: number;
  loginMaxFailuresPerAddress: number;
  /** Window over which repeated refusals are written to the audit trail once, then summed up. */
  auditCollapseWindowMs: number;
  /** Who may shelve a priority-1 ('Crítica') alarm (ALARM_SHELVE_CRITICAL): anyone with write, or administrators only. */
  alarmShelveCritical: ShelveCriticalAccess;
  allowedOrigins: string[];
  retentionDays: number;
  cookieSecure: boolean;
  /**
   * Reverse proxies whose `X-Forwarded-For`/`-Proto`/`-Host` are believed (addresses, CIDRs or
   * `loopback`/`linklocal`/`uniquelocal`); empty = none, the peer's address is the client's.
   */
  trustProxy: string[];
  /** Where people may sign in and use their sessions from (ALLOWED_NETWORKS); null: anywhere. */
  allowedNetworks: AddressAllowlist | null;
  /** Time a client has to send a whole request (headers and body); 0 = no limit. */
  requestTimeoutS: number;
  /** Open connections one address may hold, per listener (HTTP, MQTT); trusted proxies exempt; 0 = no cap. */
  maxConnectionsPerAddress: number;
  /** Free space (MiB) on DATA_DIR's disk under which operators are warned; 0 = never. */
  diskMinFreeMb: number;
  logLevel: string;
  /** Whether the web app's source maps are served (debugging only: they publish the source). */
  serveSourceMaps: boolean;
  /** Where the built web app lives; absent in API-only test runs. */
  webDistDir: string | null;
  /** SMTP server of the e-mail notifications (SMTP_URL, e.g. smtp://user:pass@host:587); null = no e-mail. */
  smtpUrl: string | null;
  /** From address of the e-mail notifications (SMTP_FROM). */
  smtpFrom: string;
  /** The address people open the system on (PUBLIC_URL), a base URL ending in '/'; null when not set. */
  publicUrl: string | null;
  /** VAPID keys of Web Push (VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY); generated and kept in the database when not given. */
  vapidKeys: { publicKey: string; privateKey: string } | null;
  /** Push endpoints on plain http accepted (PUSH_ALLOW_HTTP; for tests with a local push service). */
  pushAllowHttp: boolean;
  /**
   * Push endpoints on loopback and private addresses accepted (PUSH_ALLOW_PRIVATE; for tests with a
   * local push service). Without it push goes only to public addresses (docs/security.md "Outbound requests").
   */
  pushAllowPrivate: boolean;
  /** The whole of one delivery attempt — connect, send, answer — ends within this (NOTIFICATION_DEADLINE_MS). */
  notificationDeadlineMs: number;
  /** Secret used to key device-key hashes; generated and kept in DATA_DIR when not given. */
  deviceKeyPepper: string | null;
  /** A port of its own for `/metrics` (METRICS_PORT), without a token; null = not served there. */
  metricsPort: number | null;
  /** Bearer token that opens `/metrics` on PORT (METRICS_TOKEN); null = `/metrics` is not served on PORT. */
  metricsToken: string | null;
  /** The utility's own MQTT broker (MQTT_URL, MQTT_CA_FILE); null = the embedded broker on MQTT_PORT. */
  externalBroker: ExternalBrokerConfig | null;
  /**
   * This instance's name in logs and in its broker sessions (INSTANCE_ID). Null: a name made once
   * and kept in the database, so that a new port or host name never orphans the broker sessions
   * holding this server's queued messages.
   */
  instanceId: string | null;
  /** The map's tiles (MAP_TILE_URL, http(s) with {z}, {x} and {y}) and their credit (MAP_ATTRIBUTION); null: a map without tiles. */
  map: { tileUrl: string | null; attribution: string | null };
  version: string;
}

export class ConfigError extends Error {}

/** Where the external broker is and how the server signs in to it as its administrative client. */
export interface ExternalBrokerConfig {
  /** mqtt://host:port or mqtts://host:port, without the credentials. */
  url: string;
  username: string;
  password: string;
  /** CA certificate (PEM) that signs the broker's certificate, for mqtts:// with a private CA. */
  caFile: string | null;
  /**
   * At shutdown, leave the shared subscription and end this instance's broker sessions for good
   * (MQTT_RELEASE_SESSIONS): for an instance that is removed or renamed, whose sessions would
   * otherwise keep receiving a share of the messages.
   */
  releaseSessions: boolean;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

/** Parses and validates the environment; throws ConfigError with a clear message. */
export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const databaseUrl = databaseUrlOf(env.DATABASE_URL);
  const redisUrl = redisUrlOf(env.REDIS_URL);
  // Redis joins instances that share one database; an SQLite file belongs to one process.
  if (redisUrl !== null && databaseUrl === null) {
    throw new ConfigError('REDIS_URL is set without DATABASE_URL: several instances share a PostgreSQL database (an SQLite file belongs to one instance)');
  }
  // On a utility's PostgreSQL the demo data is asked for, never assumed (docs/operations.md).
  const demo = bool(env, 'DEMO', databaseUrl === null);
  const origins = (env.ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const o of origins) {
    let parsed: URL;
    try {
      parsed = new URL(o);
    } catch {
      throw new ConfigError(`ALLOWED_ORIGINS holds "${o}", which is not an origin such as https://agua.example.org`);
    }
    if (parsed.origin !== o.replace(/\/$/, '')) {
      throw new ConfigError(`ALLOWED_ORIGINS holds "${o}": give only scheme, host and port`);
    }
  }
  const host = env.HOST?.trim() || '127.0.0.1';
  if (!/^[A-Za-z0-9.:\-[\]]+$/.test(host)) throw new ConfigError(`HOST is not a valid address: "${host}"`);
  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent`);
  }
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    host,
    mqttPort: int(env, 'MQTT_PORT', 1883, 0, 65535),
    dataDir: path.resolve(env.DATA_DIR?.trim() || './data'),
    databaseUrl,
    redisUrl,
    demo,
    simulate: bool(env, 'SIMULATE', demo),
    simulatorSeed: env.SIMULATOR_SEED?.trim() ? int(env, 'SIMULATOR_SEED', 0, 0, 2 ** 32 - 1) : null,
    simulatorGateFaults: bool(env, 'SIMULATOR_GATE_FAULTS', true),
    deviceOfflineAfterS: int(env, 'DEVICE_OFFLINE_AFTER_S', DEFAULT_OFFLINE_AFTER_S, 1, 86_400),
    deviceRateLimit: int(env, 'DEVICE_RATE_LIMIT', 50, 0, 1_000_000),
    commandTimeoutS: int(env, 'COMMAND_TIMEOUT_S', 10, 1, 3600),
    approvalTimeoutS: int(env, 'APPROVAL_TIMEOUT_S', INTERLOCK_LIMITS.approvalTimeoutS, 1, 86_400),
    sessionTtlH: int(env, 'SESSION_TTL_H', 12, 1, 24 * 365),
    loginMaxFailuresPerUser: int(env, 'LOGIN_MAX_FAILURES_PER_USER', 5, 1, 1_000_000),
    loginMaxFailuresPerAddress: int(env, 'LOGIN_MAX_FAILURES_PER_ADDRESS', 20, 1, 1_000_000),
    auditCollapseWindowMs: int(env, 'AUDIT_COLLAPSE_WINDOW_MS', 60_000, 100, 3_600_000),
    alarmShelveCritical: shelveCriticalOf(env.ALARM_SHELVE_CRITICAL),
    allowedOrigins: origins.map((o) => o.replace(/\/$/, '')),
    retentionDays: int(env, 'RETENTION_DAYS', 365, 1, 365 * 100),
    cookieSecure: bool(env, 'COOKIE_SECURE', false),
    trustProxy: trustedProxies(env.TRUST_PROXY),
    allowedNetworks: allowedNetworks(env.ALLOWED_NETWORKS),
    requestTimeoutS: int(env, 'REQUEST_TIMEOUT_S', 30, 0, 3600),
    maxConnectionsPerAddress: int(env, 'MAX_CONNECTIONS_PER_ADDRESS', 128, 0, 1_000_000),
    diskMinFreeMb: int(env, 'DISK_MIN_FREE_MB', 500, 0, 1_000_000_000),
    logLevel,
    serveSourceMaps: bool(env, 'SERVE_SOURCE_MAPS', false),
    webDistDir: env.WEB_DIST_DIR === '' ? null : path.resolve(env.WEB_DIST_DIR?.trim() || 'apps/web/dist'),
    deviceKeyPepper: env.DEVICE_KEY_PEPPER?.trim() || null,
    smtpUrl: smtpUrlOf(env.SMTP_URL),
    smtpFrom: env.SMTP_FROM?.trim() || 'Panel de Control de Agua <alarmas@localhost>',
    publicUrl: publicUrlOf(env.PUBLIC_URL),
    vapidKeys: vapidKeysOf(env),
    pushAllowHttp: bool(env, 'PUSH_ALLOW_HTTP', false),
    pushAllowPrivate: bool(env, 'PUSH_ALLOW_PRIVATE', false),
    notificationDeadlineMs: int(env, 'NOTIFICATION_DEADLINE_MS', 10_000, 100, 120_000),
    externalBroker: externalBrokerOf(env),
    metricsPort: env.METRICS_PORT?.trim() ? int(env, 'METRICS_PORT', 0, 0, 65535) : null,
    metricsToken: metricsTokenOf(env.METRICS_TOKEN),
    instanceId: instanceIdOf(env),
    map: { tileUrl: mapTileUrlOf(env.MAP_TILE_URL), attribution: env.MAP_ATTRIBUTION?.trim() || null },
    version: env.npm_package_version ?? '0.1.0',
    ...overrides,
  };
}

/** A URL, or a ConfigError with the message (never the value: it may hold a password). */
function urlOf(value: string, message: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new ConfigError(message);
  }
}

function databaseUrlOf(raw: string | undefined): string | null {
  const value = raw?.trim();
  if (!value) return null;
  const url = urlOf(value, 'DATABASE_URL must be a URL such as postgres://user:pass@db.example:5432/agua (secrets are never logged)');
  if (!['postgres:', 'postgresql:'].includes(url.protocol)) throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql:// (without it the server runs on SQLite in DATA_DIR)');
  if (url.pathname.replace(/^\//, '') === '' && !url.searchParams.has('host')) throw new ConfigError('DATABASE_URL must name the database: postgres://user:pass@host:5432/agua');
  return value;
}

function redisUrlOf(raw: string | undefined): string | null {
  const value = raw?.trim();
  if (!value) return null;
  const url = urlOf(value, 'REDIS_URL must be a URL such as redis://:pass@cache.example:6379/0 (secrets are never logged)');
  if (!['redis:', 'rediss:'].includes(url.protocol) || !url.hostname) throw new ConfigError('REDIS_URL must start with redis:// or rediss:// and name a host');
  return value;
}

function smtpUrlOf(raw: string | undefined): string | null {
  const value = raw?.trim();
  if (!value) return null;
  const url = urlOf(value, 'SMTP_URL must be a URL such as smtp://user:pass@host:587 (secrets are never logged)');
  if (!['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname) throw new ConfigError('SMTP_URL must start with smtp:// or smtps:// and name a host');
  return value;
}

function externalBrokerOf(env: Env): ExternalBrokerConfig | null {
  const value = env.MQTT_URL?.trim();
  const caFile = env.MQTT_CA_FILE?.trim() || null;
  if (!value) {
    if (caFile) throw new ConfigError('MQTT_CA_FILE is set without MQTT_URL: it is the CA of an external broker');
    if (bool(env, 'MQTT_RELEASE_SESSIONS', false)) throw new ConfigError('MQTT_RELEASE_SESSIONS is set without MQTT_URL: it ends the sessions of an external broker');
    return null;
  }
  const url = urlOf(value, 'MQTT_URL must be a URL such as mqtt://user:pass@broker.example:1883 (secrets are never logged)');
  if (!['mqtt:', 'mqtts:'].includes(url.protocol) || !url.hostname) throw new ConfigError('MQTT_URL must start with mqtt:// or mqtts:// and name a host');
  if (!url.username || !url.password) {
    throw new ConfigError("MQTT_URL must carry the administrative client's user and password (mqtt://user:pass@host:port): the server keeps the broker's device accounts with it");
  }
  if (url.pathname.replace(/\/$/, '') !== '' || url.search) throw new ConfigError('MQTT_URL takes no path or query: mqtt://user:pass@host:port');
  if (caFile) {
    if (url.protocol !== 'mqtts:') throw new ConfigError('MQTT_CA_FILE is only used with mqtts:// in MQTT_URL');
    if (!fs.existsSync(caFile)) throw new ConfigError(`MQTT_CA_FILE names a file that does not exist: ${caFile}`);
  }
  const port = url.port || (url.protocol === 'mqtts:' ? '8883' : '1883');
  return {
    url: `${url.protocol}//${url.hostname}:${port}`,
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    caFile: caFile ? path.resolve(caFile) : null,
    releaseSessions: bool(env, 'MQTT_RELEASE_SESSIONS', false),
  };
}

function metricsTokenOf(raw: string | undefined): string | null {
  const token = raw?.trim();
  if (!token) return null;
  if (token.length < 16 || !/^[\x21-\x7e]+$/.test(token)) throw new ConfigError('METRICS_TOKEN must be at least 16 printable characters without spaces (e.g. openssl rand -hex 24)');
  return token;
}

function shelveCriticalOf(raw: string | undefined): ShelveCriticalAccess {
  const value = raw?.trim().toLowerCase();
  if (!value) return 'write';
  if (!(SHELVE_CRITICAL_ACCESS as readonly string[]).includes(value)) {
    throw new ConfigError(`ALARM_SHELVE_CRITICAL must be ${SHELVE_CRITICAL_ACCESS.join(' or ')} (who may shelve a Crítica alarm), got "${raw}"`);
  }
  return value as ShelveCriticalAccess;
}

function instanceIdOf(env: Env): string | null {
  const given = env.INSTANCE_ID?.trim();
  if (!given) return null;
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(given)) throw new ConfigError(`INSTANCE_ID may hold letters, digits, '.', '_' and '-' (up to 64), got "${given}"`);
  return given;
}

/**
 * The tile server of the sites' map (docs/sites.md): browsers fetch the tiles themselves, so the
 * address must be one they can open — http(s), with the {z}, {x} and {y} they fill in.
 */
function mapTileUrlOf(raw: string | undefined): string | null {
  const value = raw?.trim();
  if (!value) return null;
  const example = 'such as https://tile.example/{z}/{x}/{y}.png';
  const url = urlOf(value.replace(/\{[a-z]\}/g, '0'), `MAP_TILE_URL must be a tile address ${example}, got "${value}"`);
  if (!['http:', 'https:'].includes(url.protocol) || !url.hostname) throw new ConfigError(`MAP_TILE_URL must start with http:// or https:// and name a host, ${example}`);
  const missing = ['{z}', '{x}', '{y}'].filter((p) => !value.includes(p));
  if (missing.length > 0) throw new ConfigError(`MAP_TILE_URL must hold ${missing.join(', ')} (${example}), got "${value}"`);
  return value;
}

function publicUrlOf(raw: string | undefined): string | null {
  const value = raw?.trim();
  if (!value) return null;
  const url = urlOf(value, `PUBLIC_URL must be the address people open the system on, such as https://scada.example/agua/, got "${value}"`);
  if (!['http:', 'https:'].includes(url.protocol)) throw new ConfigError('PUBLIC_URL must start with http:// or https://');
  url.search = '';
  url.hash = '';
  return url.toString().endsWith('/') ? url.toString() : `${url.toString()}/`;
}

function vapidKeysOf(env: Env): Config['vapidKeys'] {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim();
  const privateKey = env.VAPID_PRIVATE_KEY?.trim();
  if (!publicKey && !privateKey) return null;
  if (!publicKey || !privateKey) throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: give both, or neither to use the generated ones');
  if (!/^[A-Za-z0-9_-]{80,90}$/.test(publicKey) || !/^[A-Za-z0-9_-]{40,45}$/.test(privateKey)) {
    throw new ConfigError('VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY must be URL-safe base64 keys (web-push generate-vapid-keys)');
  }
  return { publicKey, privateKey };
}

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: comma-separated addresses or CIDRs of the reverse proxies in front of the server.
 * `true` or a hop count are refused on purpose: trusting any peer lets every client forge its
 * address, which is exactly what the sign-in lockout and the audit must not believe.
 */
function allowedNetworks(raw: string | undefined): AddressAllowlist | null {
  if (!raw?.trim()) return null;
  try {
    return AddressAllowlist.parse(raw);
  } catch (err) {
    throw new ConfigError(`ALLOWED_NETWORKS holds ${(err as Error).message}`);
  }
}

function trustedProxies(raw: string | undefined): string[] {
  const entries = (raw ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (PROXY_KEYWORDS.has(entry)) continue;
    const [address, bits, ...rest] = entry.split('/');
    const family = net.isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !bitsOk || rest.length > 0) {
      throw new ConfigError(
        `TRUST_PROXY holds "${entry}", which is not an address, a CIDR (10.0.0.0/8) or one of loopback, linklocal, uniquelocal`,
      );
    }
  }
  return entries;
}

/** Whether the server listens only on the loopback interface. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
