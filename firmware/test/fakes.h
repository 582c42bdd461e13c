// Test doubles for the core's ports. Host-only code: std::string and std::vector are fine here.
#pragma once

#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "AguaFirmware.h"

namespace fake {

constexpr int64_t kNow = 1795000000000LL;  // 2026-11-18, a set clock

struct Clock final : agua::Clock {
  int64_t mono = 1000;
  int64_t wall = kNow;
  int64_t monotonicMs() override { return mono; }
  int64_t epochMs() override { return wall; }
  void advance(int64_t ms) {
    mono += ms;
    if (wall >= agua::kMinValidEpochMs) wall += ms;
  }
};

struct Store final : agua::Store {
  std::map<std::string, std::string> records;
  int saves = 0;
  size_t load(const char* name, void* buf, size_t cap) override {
    auto it = records.find(name);
    if (it == records.end() || it->second.size() > cap) return 0;
    memcpy(buf, it->second.data(), it->second.size());
    return it->second.size();
  }
  bool save(const char* name, const void* data, size_t len) override {
    ++saves;
    records[name] = std::string(static_cast<const char*>(data), len);
    return true;
  }
};

struct Sent {
  std::string kind;  // "telemetry" | "ack"
  std::string id;
  std::string body;
};

// Answers from a script (default: 202 with no commands); records what was sent.
struct Uplink final : agua::Uplink {
  bool up = true;
  std::vector<Sent> sent;
  std::vector<agua::UplinkResult> script;  // consumed front to back
  std::vector<std::string> bodies;         // keeps scripted bodies alive
  std::string answer;

  bool ready() override { return up; }
  agua::UplinkResult next() {
    if (script.empty()) {
      agua::UplinkResult ok;
      ok.status = agua::SendStatus::Ok;
      return ok;
    }
    agua::UplinkResult r = script.front();
    script.erase(script.begin());
    return r;
  }
  agua::UplinkResult sendTelemetry(const char* body, size_t len) override {
    sent.push_back({"telemetry", "", std::string(body, len)});
    return next();
  }
  agua::UplinkResult sendAck(const char* id, const char* body, size_t len) override {
    sent.push_back({"ack", id, std::string(body, len)});
    return next();
  }
  // Queue an answer: HTTP status + optional Retry-After and body, classified as the core would.
  void then(int status, const char* retryAfter = nullptr, std::string body = "") {
    bodies.push_back(std::move(body));
    // Stable storage: reserve so pointers into earlier strings stay valid.
    const std::string& b = bodies.back();
    script.push_back(agua::classifyHttp(status, retryAfter, b.empty() ? nullptr : b.c_str(), b.size()));
  }
  std::vector<Sent> of(const std::string& kind) const {
    std::vector<Sent> out;
    for (const auto& s : sent)
      if (s.kind == kind) out.push_back(s);
    return out;
  }
  Uplink() { bodies.reserve(64); }
};

struct Platform final : agua::Platform {
  uint32_t nextRandom = 0x1234abcd;
  std::vector<uint32_t> randoms;  // returned first, then nextRandom
  int restarts = 0;
  std::vector<std::string> events;
  uint32_t random32() override {
    if (!randoms.empty()) {
      uint32_t r = randoms.front();
      randoms.erase(randoms.begin());
      return r;
    }
    return nextRandom;
  }
  void restart() override { ++restarts; }
  void event(const char* json, size_t len) override { events.emplace_back(json, len); }
  int count(const std::string& needle) const {
    int n = 0;
    for (const auto& e : events)
      if (e.find(needle) != std::string::npos) ++n;
    return n;
  }
};

struct Probe final : agua::LevelProbe {
  float level = 3.42f;
  bool ok = true;
  bool readLevel(float& metres) override {
    metres = level;
    return ok;
  }
};

// A gate whose position moves only when driven, and only when the test says so.
struct Gate final : agua::GateHardware {
  bool open = false;
  bool closed = true;
  int8_t direction = 0;
  std::vector<int8_t> drives;
  std::function<void()> onDrive;  // lets a test look at the store at the moment the motor starts
  bool openLimit() override { return open; }
  bool closedLimit() override { return closed; }
  void drive(int8_t d) override {
    direction = d;
    drives.push_back(d);
    if (onDrive) onDrive();
  }
  int motorStarts() const {
    int n = 0;
    for (auto d : drives)
      if (d != 0) ++n;
    return n;
  }
};

// A digital input whose level the test sets (true: HIGH); counts its reads.
struct Input final : agua::DigitalInput {
  bool level = false;
  int reads = 0;
  bool read() override {
    ++reads;
    return level;
  }
};

// A whole board: one of each fake and a Device over them.
struct Board {
  Clock clock;
  Store store;
  Uplink uplink;
  Platform platform;
  Probe probe;
  Gate gate;
  Input highHigh;  // wired always; used when config.highHighSwitch is set
  agua::DeviceConfig config;
  std::unique_ptr<agua::Device> device;

  explicit Board(agua::DeviceType type = agua::DeviceType::LevelSensor, const char* id = "esp32_nivel_01") {
    config.deviceId = id;
    config.type = type;
    config.readingIntervalMs = 1000;
    config.travelTimeoutMs = 10000;
  }
  agua::Device& start(bool resume = false) {
    device = std::make_unique<agua::Device>(config, clock, store, uplink, platform, &probe, &gate, &highHigh);
    device->begin(resume);
    return *device;
  }
  // A power cut: the device object goes, the store stays.
  agua::Device& reboot() {
    platform.nextRandom += 0x1111;
    return start();
  }
  void run(int64_t ms, int64_t step = 100) {
    for (int64_t t = 0; t < ms; t += step) {
      device->loop();
      clock.advance(step);
    }
  }
  void commands(const std::string& json) { device->handleCommands(json.data(), json.size()); }
};

inline std::string command(const std::string& id, const std::string& name, int64_t expiresAt) {
  return "{\"id\":\"" + id + "\",\"command\":\"" + name + "\",\"issuedAt\":\"2026-11-18T00:00:00.000Z\",\"expiresAt\":" +
         std::to_string(expiresAt) + "}";
}

// An ISO 8601 form of epoch ms (UTC), to build commands the way the server writes them.
inline std::string iso(int64_t ms) {
  int64_t days = ms / 86400000, rem = ms % 86400000;
  // civil_from_days (Hinnant)
  days += 719468;
  const int64_t era = days / 146097, doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = yoe + era * 400;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) ++y;
  char buf[64];
  snprintf(buf, sizeof buf, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lldZ", (long long)y, (long long)m, (long long)d,
           (long long)(rem / 3600000), (long long)(rem / 60000 % 60), (long long)(rem / 1000 % 60), (long long)(rem % 1000));
  return buf;
}

inline std::string isoCommand(const std::string& id, const std::string& name, int64_t expiresAt) {
  return "{\"id\":\"" + id + "\",\"command\":\"" + name + "\",\"issuedAt\":\"" + iso(expiresAt - 10000) +
         "\",\"expiresAt\":\"" + iso(expiresAt) + "\"}";
}

}  // namespace fake
