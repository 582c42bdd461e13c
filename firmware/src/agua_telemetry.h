// Readings, the persistent queue they wait in, and the message format (docs/protocol.md "Message").
#pragma once

#include <stdint.h>

#include "agua_config.h"
#include "agua_json.h"
#include "agua_store.h"

namespace agua {

enum class DeviceType : uint8_t { LevelSensor, MotorizedGate };

const char* deviceTypeName(DeviceType t);

struct Reading {
  // > 0: epoch ms. <= 0: taken before the clock was set, at monotonic ms -ts (docs/protocol.md lets
  // `ts` out; such a reading may only be sent fresh, see Device::upload).
  int64_t ts;
  uint32_t boot;   // the boot it was taken in: a resend carries its original (boot, seq)
  uint32_t seq;
  float level;     // level sensors, metres
  uint8_t gate;    // gates, a GateState
  uint8_t reserved[3];
};

// The boot id as sent: 8 lowercase hex digits.
void bootString(uint32_t boot, char out[9]);

// Writes one message object for a reading.
void writeMessage(JsonWriter& w, const char* deviceId, DeviceType type, const Reading& r);

// boot, the next seq and the unsent readings, persisted as one record after every change: a
// reading is either queued with its seq or not taken at all, and a seq is never reused in a boot.
class TelemetryQueue {
 public:
  struct Record {
    static constexpr uint16_t kVersion = 1;
    RecordHeader header;
    uint32_t boot;
    uint32_t nextSeq;
    uint16_t head;
    uint16_t count;
    uint32_t dropped;  // readings lost to a full queue, for diagnostics
    Reading items[AGUA_QUEUE_CAPACITY];
  };

  size_t size() const { return rec_.count; }
  bool empty() const { return rec_.count == 0; }
  Reading& at(size_t i) { return rec_.items[(rec_.head + i) % AGUA_QUEUE_CAPACITY]; }
  // Appends; when full the oldest reading goes (returns false then).
  bool push(const Reading& r);
  void popFront(size_t n);
  void removeAt(size_t i);

  uint32_t boot() const { return rec_.boot; }
  uint32_t takeSeq() { return rec_.nextSeq++; }
  void newBoot(uint32_t boot) {
    rec_.boot = boot;
    rec_.nextSeq = 0;
  }
  uint32_t nextSeq() const { return rec_.nextSeq; }

  bool load(Store& store);
  bool save(Store& store) { return saveRecord(store, "telemetry", rec_); }

 private:
  Record rec_{};
};

}  // namespace agua
