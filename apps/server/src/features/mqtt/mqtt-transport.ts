/**
 * How the server speaks MQTT with devices: its embedded broker (the default) or the utility's
 * own broker (MQTT_URL). Either way a device's messages go through the device gateway.
 */
export interface MqttTransport {
  /** Takes the broker's port, or connects to the external broker; a failure stops the start. */
  start(): Promise<void>;
  /** Stops taking messages; what was received is stored first. */
  close(): Promise<void>;
  /** Publishes to a device (commands QoS 1, refusals QoS 0). */
  publish(topic: string, payload: unknown, qos?: 0 | 1): Promise<void>;
  /** Whether the device holds an MQTT session (with an external broker: its status says `online`). */
  isConnected(deviceId: string): boolean;
  /**
   * The device moved to another instance (several instances): its session here is closed without
   * its will, so that it holds one session in all. Nothing to do with an external broker.
   */
  release(deviceId: string): void;
  /** How many devices hold a session (metrics). */
  sessionCount(): number;
  /** The embedded broker's port; null with an external broker. */
  port(): number | null;
  /**
   * With an external broker, whether this server is connected to it now (the administrative
   * session and at least one ingest session); null for the embedded broker, which is this process.
   */
  brokerConnected(): boolean | null;
}
