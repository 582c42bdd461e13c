// The gate's state machine. The motor is driven only on a command; the state reported is what
// the limit switches and the travel clock say, never what was merely asked for.
#pragma once

#include <stdint.h>

namespace agua {

enum class GateState : uint8_t { Abierta, Cerrada, Abriendo, Cerrando, Falla };

const char* gateStateName(GateState s);

// The gate's hardware: two limit switches and a motor driver (H-bridge or two relays).
class GateHardware {
 public:
  virtual bool openLimit() = 0;    // true: fully open
  virtual bool closedLimit() = 0;  // true: fully closed
  // +1 open, -1 close, 0 stop. Called again with 0 at start: a board that rebooted mid-travel
  // does not move until it is told to.
  virtual void drive(int8_t direction) = 0;

 protected:
  ~GateHardware() = default;
};

enum class GateCommand : uint8_t { Abrir, Cerrar, Detener };

class GateController {
 public:
  // hw may be null for a device without a gate; the controller is then never used.
  GateController(GateHardware* hw, uint32_t travelTimeoutMs) : hw_(hw), travelTimeoutMs_(travelTimeoutMs) {}

  // Motor off; state from the switches.
  void begin();
  // Starts (or stops) the motor; state() afterwards is what the acknowledgement reports.
  void command(GateCommand c, int64_t nowMs);
  // Follows the switches and the travel clock; true when the state changed.
  bool update(int64_t nowMs);
  GateState state() const { return state_; }

 private:
  GateState restState();
  void stop();

  GateHardware* hw_;
  uint32_t travelTimeoutMs_;
  GateState state_ = GateState::Falla;
  int64_t startedAt_ = 0;
};

}  // namespace agua
