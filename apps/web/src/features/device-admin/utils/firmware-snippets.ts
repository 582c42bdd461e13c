import type { DeviceType } from '@agua/shared';

export interface SnippetTarget {
  deviceId: string;
  type: DeviceType;
  apiKey: string;
  /** window.location.origin: the address this browser reached the server at. */
  origin: string;
  /** window.location.hostname, for the MQTT broker. */
  host: string;
  /** The embedded broker's port (GET /api/health), or null with an external broker. */
  mqttPort: number | null;
}

// The MQTT port when the server does not say: the embedded broker's default (docs/product.md).
const FALLBACK_MQTT_PORT = 1883;

function sampleMessage(t: SnippetTarget): string {
  const data = t.type === 'level_sensor' ? '{"value":3.42,"unit":"m"}' : '{"value":"cerrada"}';
  return `{"deviceId":"${t.deviceId}","type":"${t.type}","data":${data}}`;
}

/** HTTP (docs/protocol.md): Arduino-style constants and a curl line to try the key from a laptop. */
export function httpSnippet(t: SnippetTarget): string {
  const id = t.deviceId;
  return [
    '// Configuración HTTP del dispositivo',
    `const char* DEVICE_ID   = "${id}";`,
    `const char* DEVICE_TYPE = "${t.type}";`,
    `const char* API_KEY     = "${t.apiKey}";`,
    `const char* SERVER_URL  = "${t.origin}";`,
    '// Lecturas: POST con la cabecera X-API-Key',
    'const char* TELEMETRY_PATH = "/api/v1/telemetry";',
    '// Comandos: GET con espera (long poll), misma cabecera',
    `const char* COMMANDS_PATH = "/api/v1/devices/${id}/commands?wait=25";`,
    `// Confirmación: POST /api/v1/devices/${id}/commands/{commandId}/ack`,
    '',
    '# Prueba desde un ordenador:',
    `curl -X POST "${t.origin}/api/v1/telemetry" \\`,
    '  -H "Content-Type: application/json" \\',
    `  -H "X-API-Key: ${t.apiKey}" \\`,
    `  -d '${sampleMessage(t)}'`,
  ].join('\n');
}

/** MQTT (docs/protocol.md): client id = username = device id, password = key, the topics. */
export function mqttSnippet(t: SnippetTarget): string {
  const id = t.deviceId;
  const base = `agua/v1/${id}`;
  const port = t.mqttPort ?? FALLBACK_MQTT_PORT;
  return [
    '// Configuración MQTT del dispositivo (MQTT 3.1.1)',
    `const char* MQTT_HOST      = "${t.host}";`,
    `const uint16_t MQTT_PORT   = ${port};${t.mqttPort === null ? ' // confirme el puerto del broker' : ''}`,
    `const char* MQTT_CLIENT_ID = "${id}";`,
    `const char* MQTT_USERNAME  = "${id}";`,
    `const char* MQTT_PASSWORD  = "${t.apiKey}";`,
    '',
    '// Publicar lecturas (QoS 1)',
    `const char* TOPIC_TELEMETRY = "${base}/telemetry";`,
    '// Suscribirse a los comandos (QoS 1)',
    `const char* TOPIC_COMMANDS  = "${base}/commands";`,
    '// Confirmar cada comando',
    `const char* TOPIC_ACK       = "${base}/commands/ack";`,
    '// Last will "offline" (retenido); publicar "online" (retenido) al conectar',
    `const char* TOPIC_STATUS    = "${base}/status";`,
    '// Suscribirse: mensajes rechazados por el servidor',
    `const char* TOPIC_ERRORS    = "${base}/errors";`,
    '',
    '// Mensaje de ejemplo:',
    `// ${sampleMessage(t)}`,
  ].join('\n');
}
