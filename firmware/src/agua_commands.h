// Commands as the device receives them, and the memory of which ids it has executed.
#pragma once

#include <stdint.h>

#include "agua_config.h"
#include "agua_json.h"
#include "agua_store.h"

namespace agua {

struct Command {
  char id[kMaxCommandId + 1];
  char name[kMaxCommandName + 1];
  int64_t expiresAtMs;  // 0: missing or unreadable, which counts as expired
};

// Shape check of one command object; false for anything a server would never send.
bool parseCommand(const JsonValue& object, Command& out);

// Interlocked: refused by a hard interlock in the device (a gate's high-high switch).
enum class CommandOutcome : uint8_t { None = 0, Succeeded = 1, Unsupported = 2, Interlocked = 3 };

// The ids of executed commands, persisted so that "at most once per id" survives a reboot. An id
// is kept as a 64-bit FNV-1a hash: 9 bytes instead of up to 101, and a collision between two of
// the last 32 ids (~2^-54) is far less likely than the flash failing.
class ExecutedLog {
 public:
  struct Entry {
    uint8_t hash[8];  // bytes, not uint64_t: no padding in the record
    uint8_t outcome;
  };
  struct Record {
    static constexpr uint16_t kVersion = 1;
    RecordHeader header;
    uint16_t next;
    uint16_t count;
    Entry entries[AGUA_EXECUTED_IDS];
  };

  // The outcome recorded for id, or None if it was never executed (or has been forgotten).
  CommandOutcome find(const char* id) const;
  // Remembers id; the oldest entry makes room when the ring is full.
  void add(const char* id, CommandOutcome outcome);

  bool load(Store& store);
  bool save(Store& store);

 private:
  Record rec_{};
};

uint64_t fnv1a64(const char* s);

}  // namespace agua
