#include "agua_device.h"

#include <string.h>

namespace agua {

namespace {

// A reading taken before the clock was set goes without `ts` (the server stamps its receipt), so
// it may only be sent while that stamp is still about right: within this long of being taken.
constexpr int64_t kClocklessFreshMs = 10000;
constexpr uint8_t kAckAttempts = 5;

const char* statusName(SendStatus s) {
  switch (s) {
    case SendStatus::Ok: return "ok";
    case SendStatus::Retry: return "retry";
    case SendStatus::Throttled: return "throttled";
    case SendStatus::Unauthorized: return "unauthorized";
    default: return "rejected";
  }
}

bool isFinite(float v) { return v == v && v - v == 0.0f; }

// What a gate acknowledges when its high-high interlock refuses `abrir` (shown to operators).
constexpr const char* kHighHighMessage = "Enclavamiento local: nivel muy alto, apertura bloqueada";

GateCommand gateCommand(const char* name) {
  return !strcmp(name, "abrir") ? GateCommand::Abrir : !strcmp(name, "cerrar") ? GateCommand::Cerrar : GateCommand::Detener;
}

bool commandSupported(DeviceType type, const char* name) {
  if (type == DeviceType::MotorizedGate) {
    return !strcmp(name, "abrir") || !strcmp(name, "cerrar") || !strcmp(name, "detener");
  }
  return !strcmp(name, "read") || !strcmp(name, "restart");
}

}  // namespace

Device::Device(const DeviceConfig& config, Clock& clock, Store& store, Uplink& uplink, Platform& platform,
               LevelProbe* probe, GateHardware* gate, DigitalInput* highHigh)
    : config_(config), clock_(clock), store_(store), uplink_(uplink), platform_(platform), probe_(probe),
      gate_(gate, config.travelTimeoutMs, highHigh, config.highHighSwitch, config.highHighActiveHigh) {}

bool Device::clockSet(int64_t& wallMs) {
  wallMs = clock_.epochMs();
  return wallMs >= kMinValidEpochMs;
}

// ---- start -------------------------------------------------------------------------------------

void Device::begin(bool resume) {
  executed_.load(store_);
  const bool stored = queue_.load(store_);
  if (!resume || !stored) {
    // A new boot per start lets seq restart at 0 without the server taking the new readings for
    // repeats. It must differ from the last one even if the RNG is weak this early after reset.
    const uint32_t previous = queue_.boot();
    uint32_t boot = platform_.random32();
    if (boot == previous) boot = ~previous;
    queue_.newBoot(boot);
  }
  // Monotonic stamps of readings without a clock mean nothing after a restart.
  size_t dropped = 0;
  for (size_t i = queue_.size(); i-- > 0;) {
    if (queue_.at(i).ts <= 0) {
      queue_.removeAt(i);
      ++dropped;
    }
  }
  queue_.save(store_);
  if (config_.type == DeviceType::MotorizedGate) gate_.begin();
  nextReadingAt_ = clock_.monotonicMs();

  char boot[9];
  bootString(queue_.boot(), boot);
  int64_t wall;
  JsonWriter w = beginEvent("boot");
  w.key("boot").str(boot).key("seq").num(queue_.nextSeq()).key("queued").num(static_cast<int64_t>(queue_.size()));
  w.key("clock").boolean(clockSet(wall)).key("resumed").boolean(resume && stored);
  if (dropped) w.key("droppedClockless").num(static_cast<int64_t>(dropped));
  emit(w);
}

// ---- loop --------------------------------------------------------------------------------------

void Device::loop() {
  const int64_t now = clock_.monotonicMs();
  if (config_.type == DeviceType::MotorizedGate) {
    const bool changed = gate_.update(now);
    if (gate_.highHigh() != highHighReported_) {
      highHighReported_ = gate_.highHigh();
      JsonWriter w = beginEvent("interlock");
      w.key("switch").str("high_high").key("active").boolean(highHighReported_);
      emit(w);
    }
    if (changed) {
      JsonWriter w = beginEvent("gate");
      w.key("state").str(gateStateName(gate_.state()));
      emit(w);
      // A change is reported at once, and the heartbeat starts over from it.
      record(0);
      nextReadingAt_ = now + config_.readingIntervalMs;
    }
  }
  if (readPending_ || (now >= nextReadingAt_ && (config_.maxReadings == 0 || readingsTaken_ < config_.maxReadings))) {
    readPending_ = false;
    takeReading();
    nextReadingAt_ = now + config_.readingIntervalMs;
  }
  if (pendingAck_.active && ackBackoff_.ready(now)) acknowledge(pendingAck_.id, pendingAck_.outcome);
  if (!queue_.empty() && sendBackoff_.ready(now) && uplink_.ready()) upload(now);
  if (restartPending_) {
    restartPending_ = false;
    JsonWriter w = beginEvent("restart");
    emit(w);
    platform_.restart();
  }
}

// ---- readings ----------------------------------------------------------------------------------

void Device::takeReading() {
  if (config_.type == DeviceType::MotorizedGate) {
    record(0);
    ++readingsTaken_;
    return;
  }
  float level = 0;
  if (!probe_ || !probe_->readLevel(level) || !isFinite(level)) {
    // No echo, probe unplugged: no reading rather than a made-up one. (An implausible but finite
    // value is still sent: the server marks it as a sensor fault.)
    JsonWriter w = beginEvent("probe_failed");
    emit(w);
    return;
  }
  record(level);
  ++readingsTaken_;
}

void Device::record(float level) {
  Reading r{};
  int64_t wall;
  r.ts = clockSet(wall) ? wall : -clock_.monotonicMs();
  r.boot = queue_.boot();
  r.seq = queue_.takeSeq();
  r.level = level;
  r.gate = static_cast<uint8_t>(gate_.state());
  const bool room = queue_.push(r);
  // Saved before it is reported: a reading the log shows is one that survives a power cut.
  queue_.save(store_);
  if (!room) {
    JsonWriter w = beginEvent("dropped");
    w.key("count").num(1).key("reason").str("queue_full");
    emit(w);
  }
  char boot[9];
  bootString(r.boot, boot);
  JsonWriter w = beginEvent("reading");
  w.key("boot").str(boot).key("seq").num(r.seq);
  if (r.ts > 0) w.key("ts").num(r.ts);
  if (config_.type == DeviceType::LevelSensor) w.key("value").fixed(level, 3);
  else w.key("value").str(gateStateName(gate_.state()));
  emit(w);
}

// Readings taken before the clock was set get their time once it is (SNTP answered meanwhile);
// those that still have none and are no longer fresh are dropped. true if the queue changed.
bool Device::freshenClockless(int64_t now) {
  int64_t wall;
  const bool haveClock = clockSet(wall);
  bool changed = false;
  size_t stale = 0;
  for (size_t i = queue_.size(); i-- > 0;) {
    Reading& r = queue_.at(i);
    if (r.ts > 0) continue;
    const int64_t age = now - (-r.ts);
    if (haveClock) {
      r.ts = wall - age;
      changed = true;
    } else if (age > kClocklessFreshMs) {
      queue_.removeAt(i);
      ++stale;
      changed = true;
    }
  }
  if (stale) {
    JsonWriter w = beginEvent("dropped");
    w.key("count").num(static_cast<int64_t>(stale)).key("reason").str("no_clock");
    emit(w);
  }
  return changed;
}

void Device::upload(int64_t now) {
  if (freshenClockless(now)) queue_.save(store_);
  if (queue_.empty()) return;

  // As many queued readings as fit in the buffer (and docs/protocol.md's 500), oldest first.
  JsonWriter w(batch_, sizeof batch_);
  w.reserve(1);  // the closing bracket
  w.beginArray();
  size_t n = 0;
  while (n < queue_.size() && n < kMaxBatchMessages) {
    const JsonWriter::Mark m = w.mark();
    writeMessage(w, config_.deviceId, config_.type, queue_.at(n));
    if (!w.ok()) {
      w.rewind(m);
      break;
    }
    ++n;
  }
  w.reserve(0);
  w.endArray();

  const UplinkResult r = uplink_.sendTelemetry(w.data(), w.size());
  if (r.status == SendStatus::Ok) {
    sendBackoff_.succeeded();
    int64_t accepted = -1, duplicates = -1;
    JsonValue body, v;
    const bool parsed = r.body && jsonParse(r.body, r.bodyLen, body);
    if (parsed && jsonMember(body, "accepted", v)) jsonInt(v, accepted);
    if (parsed && jsonMember(body, "duplicates", v)) jsonInt(v, duplicates);
    // Reported before the readings leave the queue: a crash between the two resends the batch,
    // which the server counts as duplicates (same boot/seq), never as new readings.
    JsonWriter e = beginEvent("sent");
    e.key("count").num(static_cast<int64_t>(n));
    if (accepted >= 0) e.key("accepted").num(accepted);
    if (duplicates >= 0) e.key("duplicates").num(duplicates);
    emit(e);
    queue_.popFront(n);
    queue_.save(store_);
    // A device that only posts gets its commands here (MQTT PUBACKs carry no body).
    if (parsed && jsonMember(body, "commands", v)) handleCommands(v.p, v.n);
    return;
  }

  if (r.status == SendStatus::Unauthorized) {
    // Wrong key, disabled or retired device: these readings will not be taken as they are
    // (docs/protocol.md: a refused message is not resent unchanged), and nothing changes soon.
    queue_.popFront(n);
    queue_.save(store_);
    const uint32_t delay = sendBackoff_.failed(now, 60000, platform_.random32());
    emitSendFailure("send_failed", r, delay);
    JsonWriter e = beginEvent("dropped");
    e.key("count").num(static_cast<int64_t>(n)).key("reason").str("unauthorized");
    emit(e);
    return;
  }

  if (r.status == SendStatus::Rejected) {
    // A batch is refused whole for one bad message (details.index): drop that one, keep the rest.
    int64_t index = -1;
    JsonValue body, details, v;
    if (r.body && jsonParse(r.body, r.bodyLen, body) && jsonMember(body, "details", details) &&
        jsonMember(details, "index", v)) {
      jsonInt(v, index);
    }
    const size_t count = index >= 0 && static_cast<size_t>(index) < n ? 1 : n;
    if (count == 1 && n > 1) queue_.removeAt(static_cast<size_t>(index));
    else queue_.popFront(count);
    queue_.save(store_);
    JsonWriter e = beginEvent("dropped");
    e.key("count").num(static_cast<int64_t>(count)).key("reason").str("refused");
    emit(e);
    return;
  }

  // Retry later with the same readings, hence the same boot/seq: if this attempt was in fact
  // stored (lost answer), the server drops the repeat.
  const uint32_t delay = sendBackoff_.failed(now, r.retryAfterMs, platform_.random32());
  emitSendFailure("send_failed", r, delay);
}

void Device::emitSendFailure(const char* what, const UplinkResult& r, uint32_t delay) {
  JsonWriter w = beginEvent(what);
  w.key("status").str(statusName(r.status)).key("retryInMs").num(delay);
  w.key("queued").num(static_cast<int64_t>(queue_.size()));
  emit(w);
}

// ---- commands ----------------------------------------------------------------------------------

void Device::handleCommands(const char* json, size_t len) {
  // Work on a copy: acknowledging reuses the transport's buffers, which json may point into.
  // The batch buffer is free here (an upload hands over its answer only after it is done).
  if (len >= sizeof batch_) {
    JsonWriter w = beginEvent("command");
    w.key("verdict").str("too_large");
    emit(w);
    return;
  }
  memmove(batch_, json, len);
  batch_[len] = '\0';
  JsonValue root, list;
  if (!jsonParse(batch_, len, root)) {
    JsonWriter w = beginEvent("command");
    w.key("verdict").str("invalid");
    emit(w);
    return;
  }
  if (root.type() == JsonType::Object && jsonMember(root, "commands", list)) root = list;
  if (root.type() == JsonType::Object) {
    handleOne(root);
    return;
  }
  JsonArrayIter it(root);
  JsonValue item;
  while (it.next(item)) handleOne(item);
}

void Device::handleOne(const JsonValue& object) {
  Command& c = command_;
  const bool valid = parseCommand(object, c);
  const CommandOutcome previous = valid ? executed_.find(c.id) : CommandOutcome::None;
  int64_t wall = 0;
  const char* verdict;
  if (!valid) verdict = "invalid";
  else if (previous != CommandOutcome::None) verdict = "duplicate";
  // Without a clock the command's age is unknown; a gate must not move on a stale order.
  else if (!clockSet(wall)) verdict = "no_clock";
  else if (c.expiresAtMs <= wall) verdict = "expired";
  else verdict = "new";

  JsonWriter w = beginEvent("command");
  if (valid) w.key("id").str(c.id).key("command").str(c.name);
  w.key("verdict").str(verdict);
  emit(w);

  if (previous != CommandOutcome::None) {
    // Executed before (maybe before a reboot): our ack was lost, say it again with today's state.
    acknowledge(c.id, previous);
    return;
  }
  // Expired or of unknown age: ignored, not acknowledged; the server times it out.
  if (strcmp(verdict, "new") != 0) return;

  CommandOutcome outcome =
      commandSupported(config_.type, c.name) ? CommandOutcome::Succeeded : CommandOutcome::Unsupported;
  if (outcome == CommandOutcome::Succeeded && config_.type == DeviceType::MotorizedGate) {
    // The hard interlock. One fresh reading of the switch decides both what is remembered and
    // acknowledged here and what the gate does in execute(): refuses() and command() agree.
    gate_.readHighHigh();
    if (gate_.refuses(gateCommand(c.name))) outcome = CommandOutcome::Interlocked;
  }
  // Remembered before it runs: a crash after this point can lose the command, never repeat it.
  executed_.add(c.id, outcome);
  executed_.save(store_);
  execute(c, clock_.monotonicMs());
  JsonWriter e = beginEvent("executed");
  e.key("id").str(c.id).key("command").str(c.name).key("success").boolean(outcome == CommandOutcome::Succeeded);
  if (outcome == CommandOutcome::Interlocked) e.key("interlock").str("high_high");
  if (config_.type == DeviceType::MotorizedGate) e.key("state").str(gateStateName(gate_.state()));
  emit(e);
  acknowledge(c.id, outcome);
  if (outcome != CommandOutcome::Succeeded || config_.type != DeviceType::LevelSensor) return;
  // Sensors act after the ack (docs/protocol.md): `read` sends a fresh reading, `restart` reboots.
  if (!strcmp(c.name, "read")) readPending_ = true;
  else restartPending_ = true;
}

void Device::execute(const Command& c, int64_t now) {
  if (config_.type != DeviceType::MotorizedGate || !commandSupported(config_.type, c.name)) return;
  const GateState before = gate_.state();
  // A refused `abrir` goes here too: the gate does not start, and stops if it was opening.
  gate_.command(gateCommand(c.name), now);
  if (gate_.state() != before) {
    JsonWriter w = beginEvent("gate");
    w.key("state").str(gateStateName(gate_.state()));
    emit(w);
    record(0);  // the ack carries the state; telemetry makes it the current reading too
    nextReadingAt_ = now + config_.readingIntervalMs;
  }
}

void Device::acknowledge(const char* id, CommandOutcome outcome) {
  // id may point into pendingAck_ itself: copy before anything overwrites it.
  char cid[kMaxCommandId + 1];
  strncpy(cid, id, sizeof cid - 1);
  cid[sizeof cid - 1] = '\0';
  const bool success = outcome == CommandOutcome::Succeeded;
  JsonWriter w(ack_, sizeof ack_);
  // The id is in the body too: over MQTT there is no URL to carry it.
  w.beginObject().key("id").str(cid).key("success").boolean(success);
  if (outcome == CommandOutcome::Interlocked) w.key("message").str(kHighHighMessage);
  else if (!success) w.key("message").str("Comando no soportado");
  if (config_.type == DeviceType::MotorizedGate) w.key("state").str(gateStateName(gate_.state()));
  w.endObject();

  UplinkResult r;
  if (uplink_.ready()) r = uplink_.sendAck(cid, w.data(), w.size());
  const bool retry = r.status == SendStatus::Retry || r.status == SendStatus::Throttled;
  const bool same = pendingAck_.active && !strcmp(pendingAck_.id, cid);
  const uint8_t attempts = static_cast<uint8_t>((same ? pendingAck_.attempts : 0) + 1);

  JsonWriter e = beginEvent("ack");
  e.key("id").str(cid).key("success").boolean(success);
  if (config_.type == DeviceType::MotorizedGate) e.key("state").str(gateStateName(gate_.state()));
  e.key("delivered").boolean(r.status == SendStatus::Ok);
  if (r.status != SendStatus::Ok) e.key("status").str(statusName(r.status));

  if (retry && attempts < kAckAttempts) {
    // One slot is enough: the server keeps one command in flight per device, and a newer one
    // makes an older ack late anyway. The server also re-sends the command until acknowledged,
    // and a repeat is acknowledged again, so giving up after a few tries loses nothing.
    const uint32_t delay = ackBackoff_.failed(clock_.monotonicMs(), r.retryAfterMs, platform_.random32());
    pendingAck_.active = true;
    pendingAck_.attempts = attempts;
    pendingAck_.outcome = outcome;
    memcpy(pendingAck_.id, cid, sizeof cid);
    e.key("retryInMs").num(delay);
  } else if (same) {
    pendingAck_.active = false;  // delivered, or given up (404: the server no longer knows it)
    ackBackoff_.succeeded();
  }
  emit(e);
}

// ---- events ------------------------------------------------------------------------------------

JsonWriter Device::beginEvent(const char* name) {
  JsonWriter w(event_, sizeof event_);
  w.beginObject().key("event").str(name);
  return w;
}

void Device::emit(JsonWriter& w) {
  w.endObject();
  if (w.ok()) platform_.event(w.data(), w.size());
}

}  // namespace agua
