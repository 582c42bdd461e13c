// The gate's state machine. The motor is driven only on a command; the state reported is what
// the limit switches and the travel clock say, never what was merely asked for.
//
// Hard interlock: an optional local high-high level switch ("interruptor de nivel muy alto") on
// the water the gate lets through. While it is active `abrir` is refused (the motor does not
// start) and a gate that is opening stops where it is. It does not close the gate: the firmware
// never moves the gate on its own, and whether to close is the operator's (or the PLC's) call.
// `cerrar` and `detener` are never blocked: closing and stopping are the safe acts.
#pragma once

#include <stdint.h>

#include "agua_ports.h"

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
  // highHigh: the local high-high level switch, consulted only when highHighEnabled; enabled
  // without an input counts as active (an interlock that cannot be read blocks opening).
  GateController(GateHardware* hw, uint32_t travelTimeoutMs, DigitalInput* highHigh = nullptr,
                 bool highHighEnabled = false, bool highHighActiveHigh = true)
      : hw_(hw), highHighInput_(highHigh), travelTimeoutMs_(travelTimeoutMs), highHighEnabled_(highHighEnabled),
        highHighActiveHigh_(highHighActiveHigh) {}

  // Motor off; state from the switches.
  void begin();
  // Starts (or stops) the motor; state() afterwards is what the acknowledgement reports.
  // Refused commands (refuses()) do not start the motor; a refused `abrir` stops an opening gate.
  void command(GateCommand c, int64_t nowMs);
  // Reads the high-high switch, stops an opening gate if it is active, then follows the limit
  // switches and the travel clock; true when the state changed.
  bool update(int64_t nowMs);
  GateState state() const { return state_; }

  // Reads the high-high switch once and keeps the reading (false when no switch is enabled).
  // update() does it on every call; call it right before command() so that the caller's view of
  // the outcome (refuses()) and command() rest on the same reading.
  bool readHighHigh();
  bool highHigh() const { return highHigh_; }
  // true: the interlock refuses `c` on the last reading. Only `abrir`, only while active.
  bool refuses(GateCommand c) const { return c == GateCommand::Abrir && highHigh_; }

 private:
  GateState restState();
  void stop();

  GateHardware* hw_;
  DigitalInput* highHighInput_;
  uint32_t travelTimeoutMs_;
  bool highHighEnabled_;
  bool highHighActiveHigh_;
  bool highHigh_ = false;
  GateState state_ = GateState::Falla;
  int64_t startedAt_ = 0;
};

}  // namespace agua
