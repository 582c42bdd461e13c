// What the core needs from the board. Each port is a small abstract class (no RTTI needed); a
// board implements them over its SDK (Arduino WiFi/HTTPClient/PubSubClient/Preferences) or, on a
// host, over libcurl, libmosquitto and files (host/). Destructors are protected and non-virtual:
// the core never deletes a port, and that keeps operator delete out of the firmware image.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace agua {

class Clock {
 public:
  // Milliseconds since start, never going back (timers, back-off, gate travel).
  virtual int64_t monotonicMs() = 0;
  // Wall time as Unix epoch ms, or anything below kMinValidEpochMs (0) while it is not set (no
  // SNTP answer yet). Readings then go without `ts` and commands are not executed (their
  // expiresAt cannot be judged).
  virtual int64_t epochMs() = 0;

 protected:
  ~Clock() = default;
};

// Non-volatile records by name (NVS, RTC memory, a file). save() must replace the record whole or
// not at all (write to a temporary, then rename/commit): the core frames and checksums records,
// so a torn write reads back as absent rather than as garbage.
class Store {
 public:
  // Copies record `name` into buf; returns its size (0: absent). A record larger than cap is absent.
  virtual size_t load(const char* name, void* buf, size_t cap) = 0;
  virtual bool save(const char* name, const void* data, size_t len) = 0;

 protected:
  ~Store() = default;
};

enum class SendStatus : uint8_t {
  Ok,            // HTTP 2xx / MQTT PUBACK: stored
  Retry,         // network error, timeout, 408, 5xx: send the same body again later
  Throttled,     // 429, or 503 with Retry-After: wait at least retryAfterMs
  Unauthorized,  // 401/403: wrong key or disabled device; refused like Rejected, then ask rarely
  Rejected,      // other 4xx: this body will never be accepted as it is
};

struct UplinkResult {
  SendStatus status = SendStatus::Retry;
  uint32_t retryAfterMs = 0;
  // Response body (202 {accepted, duplicates, commands} or {error, code, details}); may be null.
  // Only read before the next call into the uplink.
  const char* body = nullptr;
  size_t bodyLen = 0;
};

// The way to the server. Calls block until the server answered or the attempt failed; the core
// makes one call at a time. Commands arriving on their own (MQTT subscription, HTTP long poll) are
// handed to Device::handleCommands by the board.
class Uplink {
 public:
  virtual bool ready() = 0;
  // body: a JSON array of messages (docs/protocol.md "Message").
  virtual UplinkResult sendTelemetry(const char* body, size_t len) = 0;
  // body: {"id", "success", "message"?, "state"?}; over HTTP the id also goes in the URL.
  virtual UplinkResult sendAck(const char* commandId, const char* body, size_t len) = 0;

 protected:
  ~Uplink() = default;
};

class Platform {
 public:
  // A hardware random number (esp_random()); the boot id comes from it.
  virtual uint32_t random32() = 0;
  // Reboot the board (the `restart` command). On a microcontroller this does not return.
  virtual void restart() = 0;
  // One diagnostic event as a JSON object (serial console, log file, stdout).
  virtual void event(const char* json, size_t len) = 0;

 protected:
  ~Platform() = default;
};

// One digital input wired to the board: a level switch, a contact. read() is the electrical level
// (true: HIGH), read on every call, not filtered; which level means "active" is configuration
// (DeviceConfig), not the board's business. A gate uses one for its local high-high level switch
// (agua_gate.h).
class DigitalInput {
 public:
  virtual bool read() = 0;

 protected:
  ~DigitalInput() = default;
};

// A level sensor (ultrasonic, pressure): water level in metres, false when the probe failed.
class LevelProbe {
 public:
  virtual bool readLevel(float& metres) = 0;

 protected:
  ~LevelProbe() = default;
};

}  // namespace agua
