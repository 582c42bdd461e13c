#include "agua_telemetry.h"

#include <string.h>

#include "agua_gate.h"

namespace agua {

const char* deviceTypeName(DeviceType t) {
  return t == DeviceType::LevelSensor ? "level_sensor" : "motorized_gate";
}

void bootString(uint32_t boot, char out[9]) {
  static const char hex[] = "0123456789abcdef";
  for (int i = 7; i >= 0; --i, boot >>= 4) out[i] = hex[boot & 15];
  out[8] = '\0';
}

void writeMessage(JsonWriter& w, const char* deviceId, DeviceType type, const Reading& r) {
  char boot[9];
  bootString(r.boot, boot);
  w.beginObject().key("deviceId").str(deviceId).key("type").str(deviceTypeName(type));
  w.key("data").beginObject();
  // Millimetres: finer than any level probe resolves; more digits would only be float noise.
  if (type == DeviceType::LevelSensor) w.key("value").fixed(r.level, 3).key("unit").str("m");
  else w.key("value").str(gateStateName(static_cast<GateState>(r.gate)));
  w.endObject();
  if (r.ts > 0) w.key("ts").num(r.ts);
  w.key("seq").num(r.seq).key("boot").str(boot).endObject();
}

bool TelemetryQueue::push(const Reading& r) {
  const bool room = rec_.count < AGUA_QUEUE_CAPACITY;
  if (!room) {
    popFront(1);
    ++rec_.dropped;
  }
  rec_.items[(rec_.head + rec_.count) % AGUA_QUEUE_CAPACITY] = r;
  ++rec_.count;
  return room;
}

void TelemetryQueue::popFront(size_t n) {
  if (n > rec_.count) n = rec_.count;
  rec_.head = static_cast<uint16_t>((rec_.head + n) % AGUA_QUEUE_CAPACITY);
  rec_.count = static_cast<uint16_t>(rec_.count - n);
}

void TelemetryQueue::removeAt(size_t i) {
  if (i >= rec_.count) return;
  for (size_t k = i; k + 1 < rec_.count; ++k) at(k) = at(k + 1);
  --rec_.count;
}

bool TelemetryQueue::load(Store& store) {
  const bool ok = loadRecord(store, "telemetry", rec_);
  if (ok && (rec_.count > AGUA_QUEUE_CAPACITY || rec_.head >= AGUA_QUEUE_CAPACITY)) memset(&rec_, 0, sizeof rec_);
  return ok;
}

}  // namespace agua
