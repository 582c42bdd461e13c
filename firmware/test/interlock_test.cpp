// The hard interlock of the reference gate: a local high-high level switch. While it is active the
// gate refuses `abrir` (no motor start, success:false with a message for the operator) and an
// opening gate stops; `cerrar` and `detener` are never blocked.
#include <doctest/doctest.h>

#include <string>

#include "agua_gate.h"
#include "fakes.h"

using namespace agua;
using fake::Board;
using fake::isoCommand;
using fake::kNow;

namespace {

const std::string kRefusal =
    R"("success":false,"message":"Enclavamiento local: nivel muy alto, apertura bloqueada")";

Board& interlockedGate(Board& b, bool highHighActive) {
  b.config.type = DeviceType::MotorizedGate;
  b.config.deviceId = "esp32_compuerta_01";
  b.config.highHighSwitch = true;
  b.highHigh.level = highHighActive;  // active HIGH (the default polarity)
  b.start();
  b.device->loop();
  return b;
}

}  // namespace

// ---- the gate controller -------------------------------------------------------------------------

TEST_CASE("high-high switch: abrir is refused while it is active, without a motor start, and runs once it clears") {
  fake::Gate hw;
  fake::Input hh;
  hh.level = true;
  GateController g(&hw, 10000, &hh, true, true);
  g.begin();
  CHECK(g.highHigh());
  CHECK(g.refuses(GateCommand::Abrir));
  CHECK_FALSE(g.refuses(GateCommand::Cerrar));
  CHECK_FALSE(g.refuses(GateCommand::Detener));
  g.command(GateCommand::Abrir, 0);
  CHECK(g.state() == GateState::Cerrada);
  CHECK(hw.motorStarts() == 0);
  CHECK(hw.direction == 0);
  hh.level = false;
  CHECK_FALSE(g.update(100));  // the state did not change, only the reading
  CHECK_FALSE(g.highHigh());
  g.command(GateCommand::Abrir, 200);
  CHECK(g.state() == GateState::Abriendo);
  CHECK(hw.direction == 1);
}

TEST_CASE("high-high switch while opening: the motor stops where the gate is, no fault, no closing") {
  fake::Gate hw;
  fake::Input hh;
  GateController g(&hw, 10000, &hh, true, true);
  g.begin();
  g.command(GateCommand::Abrir, 0);
  hw.closed = false;
  CHECK_FALSE(g.update(1000));
  hh.level = true;
  CHECK(g.update(1100));
  CHECK(hw.direction == 0);
  CHECK(hw.drives.back() == 0);
  CHECK(g.state() == GateState::Abierta);  // half open lets water through
  CHECK_FALSE(g.update(20000));            // the travel timeout no longer applies
  CHECK(g.state() == GateState::Abierta);
  CHECK(hw.motorStarts() == 1);
  // Tripped before the gate left the closed switch: it stops there and says cerrada.
  fake::Gate hw2;
  fake::Input hh2;
  GateController g2(&hw2, 10000, &hh2, true, true);
  g2.begin();
  g2.command(GateCommand::Abrir, 0);
  hh2.level = true;
  CHECK(g2.update(50));
  CHECK(hw2.direction == 0);
  CHECK(g2.state() == GateState::Cerrada);
}

TEST_CASE("high-high switch: a closing gate carries on; a refused abrir does not turn it round") {
  fake::Gate hw;
  hw.open = true;
  hw.closed = false;
  fake::Input hh;
  hh.level = true;
  GateController g(&hw, 10000, &hh, true, true);
  g.begin();
  g.command(GateCommand::Cerrar, 0);
  CHECK(g.state() == GateState::Cerrando);
  CHECK(hw.direction == -1);
  hw.open = false;
  CHECK_FALSE(g.update(500));
  g.command(GateCommand::Abrir, 600);
  CHECK(g.state() == GateState::Cerrando);
  CHECK(hw.direction == -1);
  hw.closed = true;
  CHECK(g.update(4000));
  CHECK(g.state() == GateState::Cerrada);
}

TEST_CASE("high-high switch configuration: active-low, disabled, enabled without an input") {
  fake::Gate hw;
  fake::Input hh;
  // Active LOW: a LOW input blocks, a HIGH one does not.
  GateController low(&hw, 10000, &hh, true, false);
  hh.level = false;
  CHECK(low.readHighHigh());
  hh.level = true;
  CHECK_FALSE(low.readHighHigh());
  // Disabled: the input is never read and never blocks.
  fake::Input unused;
  unused.level = true;
  GateController off(&hw, 10000, &unused, false, true);
  off.begin();
  off.update(100);
  CHECK_FALSE(off.highHigh());
  CHECK_FALSE(off.refuses(GateCommand::Abrir));
  CHECK(unused.reads == 0);
  // Enabled but no input given: an interlock that cannot be read blocks opening.
  GateController blind(&hw, 10000, nullptr, true, true);
  blind.begin();
  CHECK(blind.highHigh());
  CHECK(blind.refuses(GateCommand::Abrir));
  // The default (agua_config.h): no switch.
  GateController plain(&hw, 10000);
  plain.begin();
  CHECK_FALSE(plain.refuses(GateCommand::Abrir));
}

// ---- the device: commands and acknowledgements ---------------------------------------------------

TEST_CASE("high-high active: abrir is acknowledged success:false with the interlock message and the real state; the motor does not move") {
  Board b;
  interlockedGate(b, true);
  CHECK(b.platform.count(R"({"event":"interlock","switch":"high_high","active":true})") == 1);
  b.commands(isoCommand("cmd_1", "abrir", kNow + 10000));
  CHECK(b.gate.motorStarts() == 0);
  CHECK(b.gate.direction == 0);
  CHECK(b.device->gateState() == GateState::Cerrada);
  const auto acks = b.uplink.of("ack");
  REQUIRE(acks.size() == 1);
  CHECK(acks[0].id == "cmd_1");
  CHECK(acks[0].body == R"({"id":"cmd_1",)" + kRefusal + R"(,"state":"cerrada"})");
  CHECK(b.platform.count(R"("command":"abrir","success":false,"interlock":"high_high","state":"cerrada")") == 1);
  // Executed at most once like any command: a repeat is refused again, with the same words.
  b.commands(isoCommand("cmd_1", "abrir", kNow + 10000));
  CHECK(b.uplink.of("ack").back().body == acks[0].body);
  CHECK(b.gate.motorStarts() == 0);
}

TEST_CASE("high-high cleared: a new abrir opens again; the refused id stays refused") {
  Board b;
  interlockedGate(b, true);
  b.commands(isoCommand("cmd_1", "abrir", kNow + 10000));
  CHECK(b.gate.motorStarts() == 0);
  b.highHigh.level = false;
  b.run(200);
  CHECK(b.platform.count(R"({"event":"interlock","switch":"high_high","active":false})") == 1);
  // The server re-delivers the refused command: it was answered, it is not run now.
  b.commands(isoCommand("cmd_1", "abrir", kNow + 10000));
  CHECK(b.gate.motorStarts() == 0);
  CHECK(b.uplink.of("ack").back().body == R"({"id":"cmd_1",)" + kRefusal + R"(,"state":"cerrada"})");
  // The operator's new order goes through.
  b.commands(isoCommand("cmd_2", "abrir", kNow + 10000));
  CHECK(b.gate.direction == 1);
  CHECK(b.uplink.of("ack").back().body == R"({"id":"cmd_2","success":true,"state":"abriendo"})");
}

TEST_CASE("high-high active: cerrar and detener are never blocked") {
  Board b;
  b.gate.open = true;
  b.gate.closed = false;
  interlockedGate(b, true);
  b.commands(isoCommand("cmd_c", "cerrar", kNow + 10000));
  CHECK(b.gate.direction == -1);
  CHECK(b.uplink.of("ack").back().body == R"({"id":"cmd_c","success":true,"state":"cerrando"})");
  b.gate.open = false;
  b.run(300);
  // abrir while closing: refused, and the gate keeps closing.
  b.commands(isoCommand("cmd_a", "abrir", kNow + 10000));
  CHECK(b.gate.direction == -1);
  CHECK(b.uplink.of("ack").back().body == R"({"id":"cmd_a",)" + kRefusal + R"(,"state":"cerrando"})");
  b.commands(isoCommand("cmd_d", "detener", kNow + 10000));
  CHECK(b.gate.direction == 0);
  CHECK(b.uplink.of("ack").back().body == R"({"id":"cmd_d","success":true,"state":"abierta"})");
  b.commands(isoCommand("cmd_c2", "cerrar", kNow + 10000));
  CHECK(b.gate.direction == -1);
  CHECK(b.uplink.of("ack").back().body == R"({"id":"cmd_c2","success":true,"state":"cerrando"})");
  CHECK(b.gate.motorStarts() == 2);  // both closes, never an open
  for (auto d : b.gate.drives) CHECK(d != 1);
}

TEST_CASE("high-high trips while the gate opens: the motor stops, the gate reports abierta, no falla later") {
  Board b;
  interlockedGate(b, false);
  b.commands(isoCommand("cmd_1", "abrir", kNow + 10000));
  CHECK(b.gate.direction == 1);
  b.gate.closed = false;
  b.run(300);
  CHECK(b.device->gateState() == GateState::Abriendo);
  b.highHigh.level = true;
  b.run(100);
  CHECK(b.gate.direction == 0);
  CHECK(b.device->gateState() == GateState::Abierta);
  CHECK(b.platform.count(R"({"event":"interlock","switch":"high_high","active":true})") == 1);
  CHECK(b.platform.count(R"({"event":"gate","state":"abierta"})") == 1);
  CHECK(b.uplink.of("telemetry").back().body.find("\"abierta\"") != std::string::npos);
  b.run(15000);  // beyond the travel timeout: a stop by the interlock is not a fault
  CHECK(b.device->gateState() == GateState::Abierta);
  CHECK(b.gate.motorStarts() == 1);
}

TEST_CASE("high-high trips and an abrir arrives before the next loop: refused, and the opening gate stops") {
  Board b;
  interlockedGate(b, false);
  b.commands(isoCommand("cmd_1", "abrir", kNow + 10000));
  b.gate.closed = false;
  b.run(300);
  b.highHigh.level = true;  // no loop() in between: the command reads the switch itself
  b.commands(isoCommand("cmd_2", "abrir", kNow + 10000));
  CHECK(b.gate.direction == 0);
  CHECK(b.uplink.of("ack").back().body == R"({"id":"cmd_2",)" + kRefusal + R"(,"state":"abierta"})");
  CHECK(b.gate.motorStarts() == 1);
}

TEST_CASE("the interlock refusal with a 100-character id fits the acknowledgement buffer") {
  Board b;
  interlockedGate(b, true);
  const std::string id(kMaxCommandId, 'x');
  b.commands(isoCommand(id, "abrir", kNow + 10000));
  const auto acks = b.uplink.of("ack");
  REQUIRE(acks.size() == 1);
  CHECK(acks[0].body == R"({"id":")" + id + R"(",)" + kRefusal + R"(,"state":"cerrada"})");
}

TEST_CASE("without highHighSwitch the input is ignored: abrir opens as before") {
  Board b;
  b.highHigh.level = true;
  b.config.type = DeviceType::MotorizedGate;
  b.start();
  b.device->loop();
  b.commands(isoCommand("cmd_1", "abrir", kNow + 10000));
  CHECK(b.gate.direction == 1);
  CHECK(b.highHigh.reads == 0);
  CHECK(b.platform.count(R"("event":"interlock")") == 0);
}
