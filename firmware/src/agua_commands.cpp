#include "agua_commands.h"

#include <string.h>

#include "agua_time.h"

namespace agua {

bool parseCommand(const JsonValue& object, Command& out) {
  memset(&out, 0, sizeof out);
  JsonValue id, name, expires;
  if (!jsonMember(object, "id", id) || !jsonString(id, out.id, sizeof out.id) || out.id[0] == '\0') return false;
  if (!jsonMember(object, "command", name) || !jsonString(name, out.name, sizeof out.name)) return false;
  // An expiry we cannot read stays 0: treated as passed, so a gate never moves on a command of
  // unknown age. A number is taken as epoch ms, like `ts`.
  if (jsonMember(object, "expiresAt", expires)) {
    char text[40];
    int64_t ms;
    if (jsonString(expires, text, sizeof text) && parseIsoTime(text, ms)) out.expiresAtMs = ms;
    else if (jsonInt(expires, ms) && ms > 0) out.expiresAtMs = ms;
  }
  return true;
}

uint64_t fnv1a64(const char* s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (; *s; ++s) {
    h ^= static_cast<unsigned char>(*s);
    h *= 0x100000001b3ULL;
  }
  return h;
}

namespace {
void hashBytes(const char* id, uint8_t out[8]) {
  uint64_t h = fnv1a64(id);
  for (int i = 0; i < 8; ++i, h >>= 8) out[i] = static_cast<uint8_t>(h);
}
}  // namespace

CommandOutcome ExecutedLog::find(const char* id) const {
  uint8_t h[8];
  hashBytes(id, h);
  for (uint16_t i = 0; i < rec_.count; ++i) {
    if (memcmp(rec_.entries[i].hash, h, 8) == 0) return static_cast<CommandOutcome>(rec_.entries[i].outcome);
  }
  return CommandOutcome::None;
}

void ExecutedLog::add(const char* id, CommandOutcome outcome) {
  Entry& e = rec_.entries[rec_.next];
  hashBytes(id, e.hash);
  e.outcome = static_cast<uint8_t>(outcome);
  rec_.next = static_cast<uint16_t>((rec_.next + 1) % AGUA_EXECUTED_IDS);
  if (rec_.count < AGUA_EXECUTED_IDS) ++rec_.count;
}

bool ExecutedLog::load(Store& store) {
  const bool ok = loadRecord(store, "executed", rec_);
  if (ok && (rec_.count > AGUA_EXECUTED_IDS || rec_.next >= AGUA_EXECUTED_IDS)) memset(&rec_, 0, sizeof rec_);
  return ok;
}

bool ExecutedLog::save(Store& store) { return saveRecord(store, "executed", rec_); }

}  // namespace agua
