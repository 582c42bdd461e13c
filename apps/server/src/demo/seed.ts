import { resolveGeometry, type Geometry, type Role, type SynopticItem, type UserStatus } from '@agua/shared';
import { DEMO_TANKS, type DemoTank } from '@agua/simulator';
import { demoDeviceKey, hashDeviceKey } from '../features/devices/device-keys';
import type { DeviceRecord, DevicesRepository } from '../features/devices/devices.repository';
import { NO_TOTP, type UsersRepository } from '../features/users/users.repository';
import type { SiteRecord } from '../features/sites/sites.repository';
import type { SynopticRecord } from '../features/sites/synoptics.repository';
import type { GeometryRepository } from '../features/water/geometry.repository';
import { newId } from '../lib/ids';

interface DemoUser {
  username: string;
  name: string;
  email: string;
  password: string | null;
  masterPassword: string | null;
  /** argon2id of `password` / `masterPassword`, made once (see DEMO_HASHES). */
  passwordHash: string | null;
  masterPasswordHash: string | null;
  role: Role;
  status: UserStatus;
}

/**
 * The demo passwords' argon2id hashes (lib/password.ts's parameters), made once with
 * hashPassword and kept here: the passwords are public (README), so a hash made at every demo
 * start hides nothing more, and it cost every fresh demo database — every test server — four
 * argon2id runs (~0.4 s of CPU). A test checks that each one verifies its password.
 */
const DEMO_HASHES = {
  admin123: '$argon2id$v=19$m=19456,t=2,p=1$WiFUHJC8diMvavPdPUhJpw$X7U0RRJ62hpAbUmJ+0GzaxNMu+2bKBK4tZZFwuNtiFI',
  maestra2024: '$argon2id$v=19$m=19456,t=2,p=1$9lhKKiIL39to9JCFCk2qhA$Tqv397jXcYz07fBOWupuJshs/1jfYuTMwwIJVU/Nr/0',
  operator123: '$argon2id$v=19$m=19456,t=2,p=1$QNR89J3uW/eQZRYhr0JVsg$qcoUuzVuEcRPtA7/EDhwlgJyucdEtZK4+rovC+yCyew',
  viewer123: '$argon2id$v=19$m=19456,t=2,p=1$FaF3CZfLhs/MgkwqfJVi0g$rVRLv47fMO90ruBmUaAZrdGrWsXIX+eoGNzLnUvfA/s',
} as const;

/** The seed's four sample users; the first three are the demo accounts (docs/product.md). */
export const DEMO_USERS: readonly DemoUser[] = [
  { username: 'admin', name: 'María González', email: 'maria.gonzalez@aguas.example', password: 'admin123', masterPassword: 'maestra2024', passwordHash: DEMO_HASHES.admin123, masterPasswordHash: DEMO_HASHES.maestra2024, role: 'admin', status: 'active' },
  { username: 'operator', name: 'Juan Pérez', email: 'juan.perez@aguas.example', password: 'operator123', masterPassword: null, passwordHash: DEMO_HASHES.operator123, masterPasswordHash: null, role: 'operator', status: 'active' },
  { username: 'viewer', name: 'Ana Rodríguez', email: 'ana.rodriguez@aguas.example', password: 'viewer123', masterPassword: null, passwordHash: DEMO_HASHES.viewer123, masterPasswordHash: null, role: 'viewer', status: 'active' },
  { username: 'lmartinez', name: 'Luis Martínez', email: 'luis.martinez@aguas.example', password: null, masterPassword: null, passwordHash: null, masterPasswordHash: null, role: 'operator', status: 'inactive' },
];

/** A demo level sensor's tank, from its one home (the simulator's DEMO_TANKS). */
function demoTank(deviceId: string): DemoTank {
  const tank = DEMO_TANKS[deviceId];
  if (!tank) throw new Error(`no demo tank for ${deviceId}`);
  return tank;
}

type DemoDevice = Pick<DeviceRecord, 'id' | 'name' | 'location' | 'type' | 'waterType' | 'settings' | 'siteId'>;

/** Where the seed stores its sites and their drawings (the sites feature's repositories). */
export interface DemoSiteStore {
  insert(site: SiteRecord): Promise<void>;
  insertDrawing(drawing: SynopticRecord): Promise<void>;
}

/**
 * The seed's two sites (docs/sites.md): the wastewater overflow and the clean-water reserve, a
 * couple of kilometres apart in Madrid, each with its level sensor and its gate.
 */
export const DEMO_SITES: readonly Omit<SiteRecord, 'createdAtMs' | 'updatedAtMs'>[] = [
  { id: 'site_desbordamiento', name: 'Desbordamiento Aguas Residuales', parentId: null, lat: 40.4086, lon: -3.6921, address: 'Camino del Canal de Desagüe, Madrid' },
  { id: 'site_reserva_limpia', name: 'Reserva Agua Limpia', parentId: null, lat: 40.4251, lon: -3.7145, address: 'Paseo del Depósito, Madrid' },
];

/**
 * Each demo site comes drawn (docs/sites.md "Demo"), so that a fresh start opens 'Mapa', clicks a
 * site and sees its tank and gate move: the flow left to right, on the default 1200×800 grid.
 */
const item = (id: string, symbol: SynopticItem['symbol'], deviceId: string | null, x: number, y: number, w: number, h: number, label = ''): SynopticItem => ({ id, symbol, deviceId, x, y, w, h, label, rotation: 0 });
export const DEMO_DRAWINGS: Readonly<Record<string, SynopticItem[]>> = {
  site_desbordamiento: [
    item('titulo', 'label', null, 120, 80, 480, 40, 'Aliviadero de aguas residuales'),
    item('entrada', 'channel', null, 40, 460, 120, 40, 'Colector'),
    item('pozo', 'tank', 'esp32_nivel_01', 160, 200, 240, 360),
    item('canal', 'channel', null, 400, 460, 240, 40),
    item('compuerta', 'gate', 'esp32_compuerta_01', 640, 400, 160, 160),
    item('salida', 'channel', null, 800, 460, 320, 40, 'Salida al cauce'),
  ],
  site_reserva_limpia: [
    item('titulo', 'label', null, 120, 80, 480, 40, 'Depósito de agua limpia'),
    item('entrada', 'channel', null, 40, 460, 200, 40, 'Aducción'),
    item('compuerta', 'gate', 'esp32_compuerta_02', 240, 400, 160, 160),
    item('canal', 'channel', null, 400, 460, 240, 40),
    item('deposito', 'tank', 'esp32_nivel_02', 640, 200, 280, 360),
    item('salida', 'channel', null, 920, 460, 200, 40, 'A la red'),
  ],
};

/** The seed's four devices (docs/product.md "Seed devices"). */
export const DEMO_DEVICES: readonly DemoDevice[] = [
  { id: 'esp32_nivel_01', name: 'Sensor Nivel Agua Residual', location: 'Desbordamiento Principal', type: 'level_sensor', waterType: 'residual', settings: { maxLevel: demoTank('esp32_nivel_01').maxLevel }, siteId: 'site_desbordamiento' },
  { id: 'esp32_nivel_02', name: 'Sensor Nivel Agua Limpia', location: 'Tanque de Reserva', type: 'level_sensor', waterType: 'clean', settings: { maxLevel: demoTank('esp32_nivel_02').maxLevel }, siteId: 'site_reserva_limpia' },
  { id: 'esp32_compuerta_01', name: 'Compuerta Canal A', location: 'Salida de Desbordamiento', type: 'motorized_gate', waterType: null, settings: {}, siteId: 'site_desbordamiento' },
  { id: 'esp32_compuerta_02', name: 'Compuerta Tanque Limpio', location: 'Entrada Tanque Limpio', type: 'motorized_gate', waterType: null, settings: {}, siteId: 'site_reserva_limpia' },
];

/** Fills an empty database with the demo accounts, sites and devices; does nothing otherwise. */
export async function seedDemo(users: UsersRepository, devices: DevicesRepository, sites: DemoSiteStore, keyPepper: string): Promise<boolean> {
  if ((await users.count()) > 0 || (await devices.count()) > 0) return false;
  const now = Date.now();
  for (const site of DEMO_SITES) await sites.insert({ ...site, createdAtMs: now, updatedAtMs: now });
  for (const [siteId, items] of Object.entries(DEMO_DRAWINGS)) {
    await sites.insertDrawing({ siteId, version: 1, width: 1200, height: 800, background: { kind: 'grid' }, items, createdAtMs: now, createdBy: null });
  }
  for (const [i, u] of DEMO_USERS.entries()) {
    await users.insert({
      id: newId('usr'),
      username: u.username,
      name: u.name,
      email: u.email,
      role: u.role,
      status: u.status,
      passwordHash: u.passwordHash,
      masterPasswordHash: u.masterPasswordHash,
      mustChangePassword: false,
      lastLoginMs: null,
      createdAtMs: now + i,
      ...NO_TOTP,
    });
  }
  for (const [i, d] of DEMO_DEVICES.entries()) {
    await devices.insert({
      ...d,
      enabled: true,
      retiredAtMs: null,
      keyHash: hashDeviceKey(keyPepper, demoDeviceKey(d.id)),
      gateState: d.type === 'motorized_gate' ? 'cerrada' : null,
      // The seed's fourth device was last seen about five minutes before start.
      lastSeenMs: d.id === 'esp32_compuerta_02' ? now - 5 * 60 * 1000 : null,
      lastCommandId: null,
      reading: null,
      createdAtMs: now + i,
    });
  }
  return true;
}

/**
 * The demo level sensors' tanks (docs/water.md "Simulator"): their one home is the simulator's
 * DEMO_TANKS, which moves the water in them; here they become the geometries stored as version 1
 * — a rectangular wet well of 24 m² that spills over a 1.5 m weir at 9.0 m, and a clean-water
 * tank, a vertical cylinder 16 m across, both measuring the level itself with no offset.
 */
export const DEMO_GEOMETRIES: Readonly<Record<string, Geometry>> = Object.fromEntries(Object.entries(DEMO_TANKS).map(([id, tank]) => [id, demoGeometry(id, tank.geometry, tank.maxLevel)]));

function demoGeometry(deviceId: string, input: DemoTank['geometry'], maxLevel: number): Geometry {
  const resolved = resolveGeometry(input, maxLevel);
  if ('problem' in resolved) throw new Error(`demo tank ${deviceId}: ${resolved.problem.field} ${resolved.problem.reason}`);
  return resolved.geometry;
}

/**
 * Gives each demo level sensor that has none its demo geometry as version 1, by nobody. Safe
 * for instances starting at once (a version is inserted once) and for a demo database made
 * before geometries existed.
 */
export async function seedDemoGeometries(geometries: GeometryRepository, exists: (deviceId: string) => boolean, nowMs: number): Promise<void> {
  for (const [deviceId, geometry] of Object.entries(DEMO_GEOMETRIES)) {
    if (!exists(deviceId) || (await geometries.versionsOf(deviceId)).length > 0) continue;
    await geometries.insert({ deviceId, version: 1, validFromMs: nowMs, by: null, geometry });
  }
}
