/** `npm run simulate -- …`: runs a fleet of virtual ESP32s against a server until Ctrl-C. */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { READING_INTERVAL_MS, type GeometryInput } from '@agua/shared';
import type { SimLogger } from './device-core';
import { DEMO_FLEET, startFleet, type SimDeviceConfig } from './fleet';
import { GATE_BEHAVIOURS, type GateBehaviour } from './gate';

const HELP = `Panel de Control de Agua — device simulator

Plays a fleet of virtual ESP32 boards that speak the device protocol (docs/protocol.md) over HTTP or
MQTT: level sensors send a reading every interval, gates report their state and obey commands.

Usage: npm run simulate -- [options]

  --url <url>              server base URL for HTTP (default http://127.0.0.1:8080)
  --mqtt <url>             use MQTT through this broker instead of HTTP (e.g. mqtt://127.0.0.1:1883)
  --demo                   play the demo devices esp32_nivel_01, esp32_nivel_02, esp32_compuerta_01
                           with keys demo-key-<id> (the default when --devices is not given)
  --devices <N>            add N virtual level sensors sim_nivel_0001 … (without --demo, only these).
                           They must be registered on the server first (same ids, type level_sensor):
                           the server refuses unknown devices with 401
  --key-file <path>        JSON map {"<deviceId>": "<key>"} for the extra devices (and to override
                           demo keys); devices missing from it get <key-prefix><id>
  --key-prefix <text>      key prefix for devices not in --key-file (default demo-key-)
  --max-level <m>          maxLevel of the extra devices (default 10), as registered on the server
  --area <m2>              the extra devices' tanks are rectangular with this area (default: a 1 m²
                           column); give the server the same geometry to compare its figures
  --sensor <kind>          level | distance (default level): what the extra devices send. A distance
                           sensor sends the distance down to the water; its geometry on the server
                           must say sensor 'distance' with the same mounting height and offset
  --mount-height <m>       distance sensors: the sensor's height above level 0 (≥ --max-level)
  --zero-offset <m>        the sensor's zero offset (default 0), as in the server's geometry
  --interval <ms>          reading interval (default ${READING_INTERVAL_MS})
  --travel <ms>            gate full-stroke time (default 5000)
  --gate-behaviour <b>     normal | fail | silent | stuck (default normal):
                             fail   refuses every command (success:false, "Motor bloqueado")
                             silent never acknowledges (commands time out on the server)
                             stuck  acks, never arrives, reports "falla" after 2 × travel time
  --no-long-poll           HTTP: do not hold a command long poll (commands still arrive in the
                           telemetry responses); halves the connections of a load test
  --seed <n>               seed of the water models, for a repeatable scenario
  --status <s>             seconds between status lines (default 10; 0 = none)
  --verbose                log every device event, and each reading with its tank's truth: level,
                           volume, inflow, outflow and net flow in m³/h (docs/water.md "Simulator")
  --quiet                  log only errors
  -h, --help               this text

Do not run it for the demo devices while the server runs its own simulator (SIMULATE=true): two
boards with one id would keep pushing each other off the MQTT broker.

Examples:
  npm run simulate
  npm run simulate -- --mqtt mqtt://127.0.0.1:1883 --gate-behaviour stuck
  npm run simulate -- --devices 200 --key-file keys.json --interval 1000 --no-long-poll
  npm run simulate -- --devices 1 --sensor distance --mount-height 10.5 --area 24 --verbose
`;

function fail(message: string): never {
  process.stderr.write(`simulate: ${message}\nTry --help.\n`);
  process.exit(2);
}

function parseIntOption(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) fail(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

/** A number option; `positive` refuses 0 too (a size), otherwise anything ≥ min. */
function parseNumberOption(name: string, raw: string | undefined, min: number | 'positive'): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  const ok = raw.trim() !== '' && Number.isFinite(n) && (min === 'positive' ? n > 0 : n >= min);
  if (!ok) fail(`--${name} must be a number ${min === 'positive' ? '> 0' : `≥ ${min}`}, got ${JSON.stringify(raw)}`);
  return n;
}

/** The extra devices' tank and sensor, by the server's geometry fields. */
function extraGeometry(v: { sensor: string; 'mount-height'?: string; 'zero-offset'?: string; area?: string }, maxLevel: number): GeometryInput {
  if (v.sensor !== 'level' && v.sensor !== 'distance') fail(`--sensor must be level or distance, got ${JSON.stringify(v.sensor)}`);
  const mountHeightM = parseNumberOption('mount-height', v['mount-height'], 'positive');
  if (v.sensor === 'distance' && (mountHeightM === undefined || mountHeightM < maxLevel)) fail(`--sensor distance needs --mount-height ≥ --max-level (${maxLevel} m)`);
  if (v.sensor === 'level' && mountHeightM !== undefined) fail('--mount-height is for --sensor distance');
  const zeroOffsetM = parseNumberOption('zero-offset', v['zero-offset'], -maxLevel) ?? 0;
  const areaM2 = parseNumberOption('area', v.area, 'positive');
  return {
    sensor: v.sensor,
    ...(mountHeightM !== undefined && { mountHeightM }),
    zeroOffsetM,
    ...(areaM2 !== undefined && { shape: { kind: 'rectangular', areaM2 } }),
  };
}

function main(): void {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        url: { type: 'string', default: 'http://127.0.0.1:8080' },
        mqtt: { type: 'string' },
        demo: { type: 'boolean', default: false },
        devices: { type: 'string' },
        'key-file': { type: 'string' },
        'key-prefix': { type: 'string', default: 'demo-key-' },
        'max-level': { type: 'string' },
        area: { type: 'string' },
        sensor: { type: 'string', default: 'level' },
        'mount-height': { type: 'string' },
        'zero-offset': { type: 'string' },
        interval: { type: 'string' },
        travel: { type: 'string' },
        'gate-behaviour': { type: 'string', default: 'normal' },
        'no-long-poll': { type: 'boolean', default: false },
        seed: { type: 'string' },
        status: { type: 'string', default: '10' },
        verbose: { type: 'boolean', default: false },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
  } catch (err) {
    fail((err as Error).message);
  }
  const v = parsed.values;
  if (v.help) {
    process.stdout.write(HELP);
    return;
  }

  const extra = parseIntOption('devices', v.devices, 0) ?? 0;
  const intervalMs = parseIntOption('interval', v.interval, 100);
  const travelMs = parseIntOption('travel', v.travel, 0);
  const seed = parseIntOption('seed', v.seed, 0);
  const statusS = parseIntOption('status', v.status, 0) ?? 10;
  const maxLevel = parseNumberOption('max-level', v['max-level'], 'positive') ?? 10;
  const geometry = extraGeometry(v, maxLevel);
  const behaviour = v['gate-behaviour'] as GateBehaviour;
  if (!GATE_BEHAVIOURS.includes(behaviour)) fail(`--gate-behaviour must be one of ${GATE_BEHAVIOURS.join(', ')}`);
  for (const [name, url] of [['url', v.url], ['mqtt', v.mqtt]] as const) {
    if (url !== undefined && !URL.canParse(url)) fail(`--${name} is not a URL: ${url}`);
  }

  let keys: Record<string, unknown> = {};
  if (v['key-file']) {
    try {
      keys = JSON.parse(readFileSync(v['key-file'], 'utf8')) as Record<string, unknown>;
    } catch (err) {
      fail(`cannot read --key-file: ${(err as Error).message}`);
    }
    if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) fail('--key-file must hold a JSON object {id: key}');
  }
  const keyOf = (id: string, fallback: string) => {
    const k = keys[id];
    return typeof k === 'string' && k !== '' ? k : fallback;
  };

  const devices: SimDeviceConfig[] = [];
  if (v.demo || extra === 0) {
    for (const d of DEMO_FLEET) {
      devices.push({ ...d, key: keyOf(d.id, d.key), behaviour: d.type === 'motorized_gate' ? behaviour : undefined, travelMs });
    }
  }
  const width = Math.max(4, String(extra).length);
  for (let i = 1; i <= extra; i++) {
    const id = `sim_nivel_${String(i).padStart(width, '0')}`;
    devices.push({ id, type: 'level_sensor', key: keyOf(id, `${v['key-prefix']}${id}`), maxLevel, geometry });
  }

  const logger = makeLogger(v.verbose ? 'debug' : v.quiet ? 'error' : 'info');
  const fleet = startFleet({
    transport: v.mqtt ? 'mqtt' : 'http',
    url: v.url,
    mqttUrl: v.mqtt,
    devices,
    logger,
    intervalMs,
    longPoll: !v['no-long-poll'],
    seed,
  });

  let last = { ...fleet.stats };
  const status =
    statusS > 0
      ? setInterval(() => {
          const s = fleet.stats;
          const rate = ((s.sent - last.sent) / statusS).toFixed(1);
          process.stdout.write(
            `[sim] ${fleet.size} devices · readings sent ${s.sent} (${rate}/s, ${s.duplicates} dup) · buffered ${fleet.buffered()}` +
              ` · dropped ${s.dropped} · errors ${s.errors} · commands ${s.commands} · acks ${s.acks}\n`,
          );
          last = { ...s };
        }, statusS * 1000)
      : undefined;

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      process.stderr.write('simulate: forced exit\n');
      process.exit(1);
    }
    stopping = true;
    process.stderr.write(`simulate: ${signal}, stopping (again to force)…\n`);
    clearInterval(status);
    fleet.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`simulate: stop failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

function makeLogger(level: 'debug' | 'info' | 'error'): SimLogger {
  const rank = { debug: 0, info: 1, warn: 2, error: 3 } as const;
  const at = rank[level];
  const line = (lvl: keyof typeof rank, stream: NodeJS.WriteStream) => (msg: string) => {
    if (rank[lvl] >= at) stream.write(`${new Date().toISOString()} ${lvl.padEnd(5)} ${msg}\n`);
  };
  return {
    debug: line('debug', process.stdout),
    info: line('info', process.stdout),
    warn: line('warn', process.stderr),
    error: line('error', process.stderr),
  };
}

main();
