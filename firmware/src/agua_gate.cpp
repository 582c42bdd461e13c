#include "agua_gate.h"

namespace agua {

const char* gateStateName(GateState s) {
  switch (s) {
    case GateState::Abierta: return "abierta";
    case GateState::Cerrada: return "cerrada";
    case GateState::Abriendo: return "abriendo";
    case GateState::Cerrando: return "cerrando";
    default: return "falla";
  }
}

GateState GateController::restState() {
  const bool open = hw_->openLimit();
  const bool closed = hw_->closedLimit();
  // Both switches at once cannot be true of a real gate: a wiring or switch fault.
  if (open && closed) return GateState::Falla;
  // Anything short of fully closed lets water through, so a gate stopped half way is "abierta":
  // claiming "cerrada" for it would be the dangerous error.
  return closed ? GateState::Cerrada : GateState::Abierta;
}

void GateController::stop() { hw_->drive(0); }

bool GateController::readHighHigh() {
  highHigh_ = highHighEnabled_ && (!highHighInput_ || highHighInput_->read() == highHighActiveHigh_);
  return highHigh_;
}

void GateController::begin() {
  stop();
  readHighHigh();
  state_ = restState();
}

void GateController::command(GateCommand c, int64_t nowMs) {
  if (refuses(c)) {
    // The high-high interlock: no motor start. An opening gate stops, as update() would make it;
    // any other state (a closing gate included) carries on untouched.
    if (state_ == GateState::Abriendo) {
      stop();
      state_ = restState();
    }
    return;
  }
  if (c == GateCommand::Detener) {
    stop();
    state_ = restState();
    return;
  }
  const bool opening = c == GateCommand::Abrir;
  if (state_ == (opening ? GateState::Abriendo : GateState::Cerrando)) return;  // already on its way
  stop();
  // A new command is a new attempt: it clears an earlier travel fault. A wiring fault stays.
  if (hw_->openLimit() && hw_->closedLimit()) {
    state_ = GateState::Falla;
    return;
  }
  if (opening ? hw_->openLimit() : hw_->closedLimit()) {
    state_ = opening ? GateState::Abierta : GateState::Cerrada;  // already there
    return;
  }
  hw_->drive(opening ? 1 : -1);
  state_ = opening ? GateState::Abriendo : GateState::Cerrando;
  startedAt_ = nowMs;
}

bool GateController::update(int64_t nowMs) {
  const GateState before = state_;
  readHighHigh();
  const bool open = hw_->openLimit();
  const bool closed = hw_->closedLimit();
  if (state_ == GateState::Abriendo || state_ == GateState::Cerrando) {
    const bool arrived = state_ == GateState::Abriendo ? open : closed;
    if (open && closed) {
      stop();
      state_ = GateState::Falla;
    } else if (state_ == GateState::Abriendo && highHigh_) {
      // The high-high switch tripped while opening: stop where it is and report it (abierta,
      // or cerrada if it had not left the closed switch yet). Not a fault, and no closing.
      stop();
      state_ = restState();
    } else if (arrived) {
      stop();
      state_ = state_ == GateState::Abriendo ? GateState::Abierta : GateState::Cerrada;
    } else if (nowMs - startedAt_ >= static_cast<int64_t>(travelTimeoutMs_)) {
      // Jammed, motor or switch broken: stop driving into it and say so.
      stop();
      state_ = GateState::Falla;
    }
  } else if (state_ != GateState::Falla || (open && closed)) {
    // At rest the switches are the truth (someone may move the gate by hand). A travel fault is
    // kept until the next command: the operator has to see it.
    state_ = restState();
  }
  return state_ != before;
}

}  // namespace agua
