/** The virtual ESP32 fleet: speaks docs/protocol.md over HTTP or MQTT, nothing else. */
export { DEMO_FLEET, demoKey, startFleet, type Fleet, type FleetOptions, type SimDeviceConfig } from './fleet';
export { GATE_BEHAVIOURS, GATE_FAIL_MESSAGE, Gate, type GateBehaviour, type GateOptions } from './gate';
export { LevelSensor, type LevelSensorOptions } from './level-sensor';
export { DEMO_TANKS, type DemoTank } from './tank/demo-tanks';
export { defaultFlows, type PumpSettings, type StormSettings, type TankFlows } from './tank/flows';
export { levelOfVolume } from './tank/level-of-volume';
export { sensorValue } from './tank/sensor-value';
export { TankModel, type TankModelOptions, type TankTruth } from './tank/tank-model';
export { createRng, type Rng } from './rng';
export type { DeviceIO, SimLogger, VirtualDevice } from './device-core';
export type { SimStats, Transport } from './transport';
