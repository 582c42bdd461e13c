// The device side of docs/protocol.md in one object: readings with boot/seq into a persistent queue,
// batched uploads with back-off, commands executed at most once per id and acknowledged with the
// gate's state. Single-threaded: the board calls loop() often and hands it whatever commands its
// transports receive. Everything lives inside this object (no allocation): declare it static.
#pragma once

#include <stdint.h>

#include "agua_backoff.h"
#include "agua_commands.h"
#include "agua_config.h"
#include "agua_gate.h"
#include "agua_json.h"
#include "agua_ports.h"
#include "agua_telemetry.h"

namespace agua {

struct DeviceConfig {
  const char* deviceId = "";
  DeviceType type = DeviceType::LevelSensor;
  // Level sensors: a reading every interval. Gates: their state every interval (a heartbeat that
  // keeps them online), and at once on every change.
  uint32_t readingIntervalMs = 5000;
  // Gates: longer than this from one limit switch to the other is a fault (docs/protocol.md default 120 s).
  uint32_t travelTimeoutMs = 120000;
  // Periodic readings to take, then stop (0: forever): for a board that wakes, measures, uploads
  // and sleeps, and for tests.
  uint32_t maxReadings = 0;
  // Gates: the local high-high level switch (agua_config.h, agua_gate.h), read through the
  // `highHigh` input given to the Device. While active, `abrir` is refused and an opening gate stops.
  bool highHighSwitch = AGUA_HIGH_HIGH_SWITCH;
  bool highHighActiveHigh = AGUA_HIGH_HIGH_ACTIVE_HIGH;
};

class Device {
 public:
  // probe: level sensors; gate: motorized gates (the other may be null). highHigh: a gate's local
  // high-high level switch, used when config.highHighSwitch is set (set without it, opening is
  // refused: an interlock that cannot be read blocks).
  Device(const DeviceConfig& config, Clock& clock, Store& store, Uplink& uplink, Platform& platform,
         LevelProbe* probe, GateHardware* gate, DigitalInput* highHigh = nullptr);

  // Loads the persistent state. A cold start (power-on, reset, `restart`) picks a new boot id and
  // counts seq from 0; resume=true (wake from deep sleep) continues the stored boot and seq.
  void begin(bool resume = false);
  void loop();
  // A command object, an array of them, or a 202 body with `commands` (HTTP long poll, MQTT
  // message, telemetry answer).
  void handleCommands(const char* json, size_t len);

  // Nothing left to upload, acknowledge or do: the moment to sleep or power off.
  bool idle() const { return queue_.empty() && !pendingAck_.active && !restartPending_; }
  uint32_t readingsTaken() const { return readingsTaken_; }
  size_t queued() const { return queue_.size(); }
  uint32_t bootId() const { return queue_.boot(); }
  GateState gateState() const { return gate_.state(); }

 private:
  struct PendingAck {
    bool active;
    uint8_t attempts;
    CommandOutcome outcome;
    char id[kMaxCommandId + 1];
  };

  bool clockSet(int64_t& wallMs);
  void record(float level);
  void takeReading();
  void upload(int64_t now);
  bool freshenClockless(int64_t now);
  void handleOne(const JsonValue& object);
  void execute(const Command& c, int64_t now);
  void acknowledge(const char* id, CommandOutcome outcome);
  JsonWriter beginEvent(const char* name);
  void emit(JsonWriter& w);
  void emitSendFailure(const char* what, const UplinkResult& r, uint32_t delay);

  DeviceConfig config_;
  Clock& clock_;
  Store& store_;
  Uplink& uplink_;
  Platform& platform_;
  LevelProbe* probe_;
  GateController gate_;
  TelemetryQueue queue_;
  ExecutedLog executed_;
  Backoff sendBackoff_{1000, 60000};
  Backoff ackBackoff_{500, 4000};
  int64_t nextReadingAt_ = 0;
  uint32_t readingsTaken_ = 0;
  bool restartPending_ = false;
  bool readPending_ = false;
  bool highHighReported_ = false;  // the high-high switch as last reported in an `interlock` event
  PendingAck pendingAck_{};
  Command command_{};
  char batch_[AGUA_BATCH_BYTES];
  char ack_[kMaxCommandId + 128];  // the interlock refusal with a 100-character id is 212 bytes
  char event_[kMaxCommandId + 160];
};

// Sends over `primary` (MQTT) while it is connected, else over `secondary` (HTTP): a board
// keeps reporting, and gets its commands in the 202 answers, while its broker is unreachable.
class FallbackUplink final : public Uplink {
 public:
  FallbackUplink(Uplink& primary, Uplink& secondary) : primary_(primary), secondary_(secondary) {}
  bool ready() override { return primary_.ready() || secondary_.ready(); }
  UplinkResult sendTelemetry(const char* body, size_t len) override {
    return pick().sendTelemetry(body, len);
  }
  UplinkResult sendAck(const char* id, const char* body, size_t len) override {
    return pick().sendAck(id, body, len);
  }

 private:
  Uplink& pick() { return primary_.ready() ? primary_ : secondary_; }
  Uplink& primary_;
  Uplink& secondary_;
};

}  // namespace agua
