// Host-side implementations of the core's ports: clock, files as flash, stdout as the serial
// console, and the simulated sensor and gate. Host code: std::string and threads are fine here.
#pragma once

#include <atomic>
#include <deque>
#include <mutex>
#include <string>

#include "AguaFirmware.h"

namespace host {

// stdout, one JSON object per line, from any thread.
void printLine(const std::string& json);

// A random number from the kernel (what esp_random() is on the ESP32).
uint32_t hostRandom();

class Clock final : public agua::Clock {
 public:
  int64_t monotonicMs() override;
  int64_t epochMs() override;
};

// One file per record in a directory; replaced atomically (write, fsync, rename) like NVS commits.
class FileStore final : public agua::Store {
 public:
  explicit FileStore(std::string dir) : dir_(std::move(dir)) {}
  size_t load(const char* name, void* buf, size_t cap) override;
  bool save(const char* name, const void* data, size_t len) override;

 private:
  std::string dir_;
};

class Platform final : public agua::Platform {
 public:
  Platform(char** argv, std::string crashAt) : argv_(argv), crashAt_(std::move(crashAt)) {}
  uint32_t random32() override;
  // A reboot: the process replaces itself (same arguments, same state dir) without a clean
  // MQTT disconnect, so the broker fires the last will as it would for a real board.
  void restart() override;
  // Prints the event; with --crash-at NAME, dies by SIGKILL right after printing event NAME
  // (fault injection for the integration tests: "sent" = the server stored a batch but the board
  // dies before forgetting it; "executed" = it ran a command but dies before acknowledging it).
  void event(const char* json, size_t len) override;

 private:
  char** argv_;
  std::string crashAt_;
};

// Water level wandering slowly between 1 and 4 m, so a 5 m channel sees ordinary readings.
class SimProbe final : public agua::LevelProbe {
 public:
  bool readLevel(float& metres) override;
};

// A gate whose position (0 closed … 1 open) moves at 1/travelMs while driven. The position and
// motion are kept in the state dir: the gate is physical, it does not forget where it is when the
// board reboots.
class SimGate final : public agua::GateHardware {
 public:
  SimGate(std::string file, int64_t travelMs);
  bool openLimit() override { return position() >= 1.0; }
  bool closedLimit() override { return position() <= 0.0; }
  void drive(int8_t direction) override;

 private:
  double position() const;
  void save() const;
  std::string file_;
  int64_t travelMs_;
  double from_ = 0;
  int8_t direction_ = 0;
  int64_t startedAt_ = 0;  // epoch ms: survives the reboot, unlike a monotonic clock
};

// A digital input read from a file on every call, so a test (or a person) can flip it while the
// board runs: `echo 1 > FILE` is HIGH, `echo 0 > FILE` is LOW. A missing or empty file reads
// HIGH, like an open contact on a pull-up (and like a cut wire: with the fail-safe active-high
// wiring that blocks opening).
class FileInput final : public agua::DigitalInput {
 public:
  explicit FileInput(std::string path) : path_(std::move(path)) {}
  bool read() override;

 private:
  std::string path_;
};

// Command payloads from transport threads to the main loop (the core is single-threaded).
class Mailbox {
 public:
  void push(std::string s);
  bool pop(std::string& out);

 private:
  std::mutex m_;
  std::deque<std::string> q_;
};

}  // namespace host
