#include <doctest/doctest.h>

#include "agua_gate.h"
#include "fakes.h"

using namespace agua;

TEST_CASE("gate state at start comes from the limit switches, with the motor off") {
  fake::Gate hw;
  GateController g(&hw, 10000);
  hw.direction = 1;
  g.begin();
  CHECK(hw.direction == 0);
  CHECK(g.state() == GateState::Cerrada);
  hw.closed = false;
  g.begin();
  CHECK(g.state() == GateState::Abierta);  // between the switches: water flows, so "abierta"
  hw.open = true;
  g.begin();
  CHECK(g.state() == GateState::Abierta);
  hw.closed = true;
  g.begin();
  CHECK(g.state() == GateState::Falla);  // both switches: wiring fault
}

TEST_CASE("abrir drives the motor, reports abriendo, then abierta at the open switch") {
  fake::Gate hw;
  GateController g(&hw, 10000);
  g.begin();
  g.command(GateCommand::Abrir, 0);
  CHECK(g.state() == GateState::Abriendo);
  CHECK(hw.direction == 1);
  hw.closed = false;
  CHECK_FALSE(g.update(500));  // left the closed switch: still abriendo, no change
  CHECK(g.state() == GateState::Abriendo);
  CHECK_FALSE(g.update(600));
  hw.open = true;
  CHECK(g.update(4000));
  CHECK(g.state() == GateState::Abierta);
  CHECK(hw.direction == 0);
  // cerrar back
  g.command(GateCommand::Cerrar, 5000);
  CHECK(g.state() == GateState::Cerrando);
  CHECK(hw.direction == -1);
  hw.open = false;
  hw.closed = true;
  CHECK(g.update(8000));
  CHECK(g.state() == GateState::Cerrada);
}

TEST_CASE("a command for where the gate already is does not move it and reports the final state") {
  fake::Gate hw;
  GateController g(&hw, 10000);
  g.begin();
  g.command(GateCommand::Cerrar, 0);
  CHECK(g.state() == GateState::Cerrada);
  CHECK(hw.motorStarts() == 0);
}

TEST_CASE("repeating abrir while opening keeps the same travel clock") {
  fake::Gate hw;
  GateController g(&hw, 10000);
  g.begin();
  g.command(GateCommand::Abrir, 0);
  hw.closed = false;
  g.command(GateCommand::Abrir, 9000);
  CHECK(g.update(10000));
  CHECK(g.state() == GateState::Falla);
}

TEST_CASE("detener stops the motor mid-way and reports abierta") {
  fake::Gate hw;
  GateController g(&hw, 10000);
  g.begin();
  g.command(GateCommand::Abrir, 0);
  hw.closed = false;
  g.command(GateCommand::Detener, 2000);
  CHECK(hw.direction == 0);
  CHECK(g.state() == GateState::Abierta);
}

TEST_CASE("travel timeout: no switch reached in time → motor off, falla, kept until the next command") {
  fake::Gate hw;
  GateController g(&hw, 10000);
  g.begin();
  g.command(GateCommand::Cerrar, 0);  // already closed: no travel
  g.command(GateCommand::Abrir, 1000);
  hw.closed = false;
  CHECK_FALSE(g.update(10999));
  CHECK(g.update(11000));
  CHECK(g.state() == GateState::Falla);
  CHECK(hw.direction == 0);
  CHECK_FALSE(g.update(20000));  // stays falla at rest
  CHECK(g.state() == GateState::Falla);
  // A new command is a new attempt.
  g.command(GateCommand::Cerrar, 21000);
  CHECK(g.state() == GateState::Cerrando);
  hw.closed = true;
  g.update(22000);
  CHECK(g.state() == GateState::Cerrada);
}

TEST_CASE("both switches during travel is a fault; at rest the switches are followed") {
  fake::Gate hw;
  GateController g(&hw, 10000);
  g.begin();
  g.command(GateCommand::Abrir, 0);
  hw.open = true;  // closed still true
  CHECK(g.update(100));
  CHECK(g.state() == GateState::Falla);
  CHECK(hw.direction == 0);
  g.command(GateCommand::Abrir, 200);  // a wiring fault stays
  CHECK(g.state() == GateState::Falla);
  CHECK(hw.motorStarts() == 1);
  hw.open = false;
  g.command(GateCommand::Detener, 300);
  CHECK(g.state() == GateState::Cerrada);
  hw.closed = false;  // moved by hand
  CHECK(g.update(400));
  CHECK(g.state() == GateState::Abierta);
}
