/** The virtual ESP32 fleet: speaks docs/protocol.md over HTTP or MQTT, nothing else. */
export { DEMO_FLEET, DEMO_TANKS, demoKey, startFleet, type Fleet, type FleetOptions, type SimDeviceConfig } from './fleet';
export { GATE_BEHAVIOURS, GATE_FAIL_MESSAGE, Gate, type GateBehaviour, type GateOptions } from './gate';
export { LevelSensor, LevelWalk, sensorValue, type DistanceSensor, type LevelSensorOptions, type LevelWalkOptions, type TankFlows } from './level-sensor';
export { createRng, type Rng } from './rng';
export type { DeviceIO, SimLogger, VirtualDevice } from './device-core';
export type { SimStats, Transport } from './transport';
