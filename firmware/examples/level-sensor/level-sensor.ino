// Agua level sensor on an ESP32: a waterproof ultrasonic probe above the water reports the level
// every 5 s (docs/protocol.md "Message"), keeps readings while the link is down, and answers the
// `read` and `restart` commands.
//
// Wiring (3.3 V logic):
//   JSN-SR04T (or AJ-SR04M) ultrasonic module, powered from 5 V:
//     TRIG  -> GPIO 5
//     ECHO  -> GPIO 18 through a divider (1 kΩ from ECHO, 2 kΩ to GND): the module drives 5 V.
//   The probe hangs PROBE_HEIGHT_M above the channel floor, pointing straight down; the level is
//   PROBE_HEIGHT_M minus the distance to the water. Keep it > 25 cm above the highest water
//   (the module's dead zone).
//   Pressure probe instead (4–20 mA, e.g. 0–5 m): 165 Ω shunt to GND on GPIO 34, read with
//   analogReadMilliVolts(); level = (mV / 165 − 4) / 16 × range. Replace UltrasonicProbe below.
//
// Libraries: this folder's library (AguaFirmware) and PubSubClient (Nick O'Leary).
#include <AguaEsp32.h>

// ---- settings -----------------------------------------------------------------------------------
static const agua::esp32::Settings SETTINGS = {
    "my-wifi",                      // WiFi SSID
    "my-wifi-password",             // WiFi password
    "http://192.168.1.10:8080",     // the panel's server
    "192.168.1.10",                 // MQTT broker (the server's embedded one); nullptr: HTTP only
    1883,                           // MQTT port
    "esp32_nivel_01",               // device id, as created in the panel
    "paste-the-key-shown-once",     // its API key
};
static const float PROBE_HEIGHT_M = 6.0f;  // probe above the channel floor
static const int PIN_TRIG = 5;
static const int PIN_ECHO = 18;

// ---- the probe ----------------------------------------------------------------------------------
class UltrasonicProbe final : public agua::LevelProbe {
 public:
  bool readLevel(float& metres) override {
    // Median of 5 pings: a single echo off a wave or a splash is rejected.
    float d[5];
    int n = 0;
    for (int i = 0; i < 5; ++i) {
      digitalWrite(PIN_TRIG, LOW);
      delayMicroseconds(4);
      digitalWrite(PIN_TRIG, HIGH);
      delayMicroseconds(20);
      digitalWrite(PIN_TRIG, LOW);
      const unsigned long us = pulseIn(PIN_ECHO, HIGH, 40000);  // 40 ms ≈ 6.8 m and back
      if (us > 0) d[n++] = us * 0.000343f / 2.0f;               // speed of sound at ~20 °C
      delay(60);                                                 // let the echoes die out
    }
    if (n < 3) return false;  // no echo: the core reports probe_failed, sends nothing
    for (int i = 1; i < n; ++i)
      for (int j = i; j > 0 && d[j] < d[j - 1]; --j) {
        const float t = d[j];
        d[j] = d[j - 1];
        d[j - 1] = t;
      }
    metres = PROBE_HEIGHT_M - d[n / 2];
    return true;
  }
};

// ---- the board ----------------------------------------------------------------------------------
static agua::esp32::Clock clock_;
static agua::esp32::Store store;
static agua::esp32::Platform platform;
static agua::esp32::Link net(SETTINGS);  // not "link": POSIX has a link()
static UltrasonicProbe probe;
static agua::DeviceConfig config() {
  agua::DeviceConfig c;
  c.deviceId = SETTINGS.deviceId;
  c.type = agua::DeviceType::LevelSensor;
  c.readingIntervalMs = 5000;
  return c;
}
// Static: the core never allocates, so all of its memory is here, counted at link time.
static agua::Device device(config(), clock_, store, net, platform, &probe, nullptr);

void setup() {
  Serial.begin(115200);
  pinMode(PIN_TRIG, OUTPUT);
  pinMode(PIN_ECHO, INPUT);
  store.begin();
  net.begin();
  // A wake from deep sleep continues its boot and seq; any other start is a new boot.
  device.begin(esp_reset_reason() == ESP_RST_DEEPSLEEP);
}

void loop() {
  net.service(device);
  device.loop();
  delay(10);
}
