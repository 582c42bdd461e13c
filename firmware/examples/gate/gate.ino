// Agua motorized gate on an ESP32: opens, closes and stops on command (`abrir`, `cerrar`,
// `detener`), executes each command id at most once (remembered in NVS across reboots), never
// one past its expiresAt, reports `abriendo`/`cerrando` at once and `abierta`/`cerrada` at the
// limit switches, or `falla` when the travel takes longer than TRAVEL_TIMEOUT_MS.
// Hard interlock: while the local high-high level switch is active, `abrir` is refused
// (success:false, "Enclavamiento local: nivel muy alto, apertura bloqueada") and an opening gate
// stops; `cerrar` and `detener` always work.
//
// Wiring (3.3 V logic):
//   Limit switches, NORMALLY CLOSED, each between its GPIO and GND (internal pull-ups on):
//     fully open   -> GPIO 32        fully closed -> GPIO 33
//     Contact closed (gate elsewhere) reads LOW; at the limit the contact opens and reads HIGH.
//     NC is fail-safe: a cut wire also reads "at the limit", so the motor stops instead of
//     driving into the end stop; both reading HIGH at once is reported as `falla`.
//   Motor driver, BTS7960 (IBT-2) H-bridge, logic powered from 3.3 V or 5 V:
//     RPWM -> GPIO 25 (open)   LPWM -> GPIO 26 (close)   R_EN + L_EN -> GPIO 27
//     The EN pin has a 10 kΩ pull-down so the motor cannot move while the ESP32 boots or resets;
//     the core also stops the motor at every start. Relays instead: two relays, interlocked so
//     both can never close together.
//   Size TRAVEL_TIMEOUT_MS at ~1.5× the measured full stroke.
//   High-high level switch (float or conductive, on the water this gate lets through), its
//   NORMALLY CLOSED contact between GPIO 13 and GND (internal pull-up on; on a long cable add
//   4.7 kΩ to 3.3 V): normal level reads LOW; at high-high the contact opens and reads HIGH, and a
//   cut wire reads HIGH too, so a broken switch blocks opening rather than hiding. No switch
//   wired: set HIGH_HIGH_SWITCH to false (else the open pin reads HIGH and every abrir is refused).
//
// Libraries: this folder's library (AguaFirmware) and PubSubClient (Nick O'Leary).
#include <AguaEsp32.h>

// ---- settings -----------------------------------------------------------------------------------
static const agua::esp32::Settings SETTINGS = {
    "my-wifi",                      // WiFi SSID
    "my-wifi-password",             // WiFi password
    "http://192.168.1.10:8080",     // the panel's server
    "192.168.1.10",                 // MQTT broker; commands arrive within a second over MQTT
    1883,                           // MQTT port
    "esp32_compuerta_01",           // device id, as created in the panel
    "paste-the-key-shown-once",     // its API key
};
static const uint32_t TRAVEL_TIMEOUT_MS = 120000;  // docs/protocol.md default travelTimeoutS = 120
static const int PIN_LIMIT_OPEN = 32;
static const int PIN_LIMIT_CLOSED = 33;
static const int PIN_OPEN = 25;
static const int PIN_CLOSE = 26;
static const int PIN_ENABLE = 27;
static const bool HIGH_HIGH_SWITCH = true;  // the local high-high level switch is wired
static const int PIN_HIGH_HIGH = 13;

// ---- the gate -----------------------------------------------------------------------------------
class Gate final : public agua::GateHardware {
 public:
  void begin() {
    pinMode(PIN_LIMIT_OPEN, INPUT_PULLUP);
    pinMode(PIN_LIMIT_CLOSED, INPUT_PULLUP);
    pinMode(PIN_OPEN, OUTPUT);
    pinMode(PIN_CLOSE, OUTPUT);
    pinMode(PIN_ENABLE, OUTPUT);
    drive(0);
  }
  bool openLimit() override { return stable(PIN_LIMIT_OPEN); }
  bool closedLimit() override { return stable(PIN_LIMIT_CLOSED); }
  void drive(int8_t direction) override {
    // Both sides low first: the bridge never sees both directions at once, even for a moment.
    digitalWrite(PIN_OPEN, LOW);
    digitalWrite(PIN_CLOSE, LOW);
    digitalWrite(PIN_ENABLE, direction != 0 ? HIGH : LOW);
    if (direction > 0) digitalWrite(PIN_OPEN, HIGH);
    if (direction < 0) digitalWrite(PIN_CLOSE, HIGH);
  }

 private:
  // Three equal reads 1 ms apart: switch bounce and motor noise do not end a travel early.
  static bool stable(int pin) {
    const int a = digitalRead(pin);
    delay(1);
    const int b = digitalRead(pin);
    delay(1);
    return a == HIGH && b == HIGH && digitalRead(pin) == HIGH;
  }
};

// ---- the board ----------------------------------------------------------------------------------
static agua::esp32::Clock clock_;
static agua::esp32::Store store;
static agua::esp32::Platform platform;
static agua::esp32::Link net(SETTINGS);  // not "link": POSIX has a link()
static Gate gate;
static agua::esp32::Input highHigh(PIN_HIGH_HIGH);
static agua::DeviceConfig config() {
  agua::DeviceConfig c;
  c.deviceId = SETTINGS.deviceId;
  c.type = agua::DeviceType::MotorizedGate;
  c.readingIntervalMs = 5000;  // state heartbeat; changes are sent at once
  c.travelTimeoutMs = TRAVEL_TIMEOUT_MS;
  c.highHighSwitch = HIGH_HIGH_SWITCH;
  c.highHighActiveHigh = true;  // NC contact to GND + pull-up: HIGH = high-high (or a cut wire)
  return c;
}
static agua::Device device(config(), clock_, store, net, platform, nullptr, &gate, &highHigh);

void setup() {
  gate.begin();  // motor off before anything else
  highHigh.begin();
  Serial.begin(115200);
  store.begin();
  net.begin();
  device.begin(esp_reset_reason() == ESP_RST_DEEPSLEEP);
}

void loop() {
  net.service(device);
  device.loop();  // reads the limit switches: keep loop() short, no long delays
  delay(5);
}
