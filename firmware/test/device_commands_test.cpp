#include <doctest/doctest.h>

#include <string>

#include "fakes.h"

using namespace agua;
using fake::Board;
using fake::isoCommand;
using fake::kNow;

namespace {
Board& gateBoard(Board& b) {
  b.config.type = DeviceType::MotorizedGate;
  b.config.deviceId = "esp32_compuerta_01";
  b.start();
  b.device->loop();
  return b;
}
}  // namespace

TEST_CASE("abrir is executed and acknowledged with the state it leads to, with its id in the body") {
  Board b;
  gateBoard(b);
  b.commands(isoCommand("cmd_1", "abrir", kNow + 10000));
  CHECK(b.gate.direction == 1);
  const auto acks = b.uplink.of("ack");
  REQUIRE(acks.size() == 1);
  CHECK(acks[0].id == "cmd_1");
  CHECK(acks[0].body == R"({"id":"cmd_1","success":true,"state":"abriendo"})");
  // The change is also telemetry, so the server's current reading moves at once.
  CHECK(b.uplink.of("telemetry").size() >= 1);
  b.device->loop();
  CHECK(b.uplink.of("telemetry").back().body.find("\"abriendo\"") != std::string::npos);
}

TEST_CASE("a command id is executed at most once; a repeat is acknowledged again without running") {
  Board b;
  gateBoard(b);
  const std::string c = isoCommand("cmd_1", "abrir", kNow + 10000);
  b.commands(c);
  b.gate.closed = false;
  b.gate.open = true;
  b.run(200);  // arrives: abierta
  b.commands(c);
  CHECK(b.gate.motorStarts() == 1);
  const auto acks = b.uplink.of("ack");
  REQUIRE(acks.size() == 2);
  CHECK(acks[1].body == R"({"id":"cmd_1","success":true,"state":"abierta"})");
  CHECK(b.platform.count(R"("verdict":"duplicate")") == 1);
}

TEST_CASE("executed ids are remembered across a reboot: killed before the ack, the repeat is not run") {
  Board b;
  gateBoard(b);
  b.uplink.up = false;  // the ack cannot go out, then the power goes
  b.commands(isoCommand("cmd_9", "abrir", kNow + 10000));
  CHECK(b.gate.motorStarts() == 1);
  b.gate.closed = false;  // it had moved a little
  b.reboot();
  b.uplink.up = true;
  b.commands(isoCommand("cmd_9", "abrir", kNow + 10000));
  CHECK(b.gate.motorStarts() == 1);
  const auto acks = b.uplink.of("ack");
  REQUIRE(acks.size() == 1);
  CHECK(acks[0].body == R"({"id":"cmd_9","success":true,"state":"abierta"})");
}

TEST_CASE("the id is stored before the motor starts (write-ahead)") {
  Board b;
  gateBoard(b);
  bool storedFirst = false;
  b.gate.onDrive = [&] {
    if (b.gate.direction == 0) return;
    Board other;
    other.store = b.store;
    other.config.type = DeviceType::MotorizedGate;
    other.start();
    other.commands(isoCommand("cmd_w", "abrir", kNow + 10000));
    storedFirst = other.gate.motorStarts() == 0;
  };
  b.commands(isoCommand("cmd_w", "abrir", kNow + 10000));
  CHECK(storedFirst);
}

TEST_CASE("an expired command is ignored: not executed, not acknowledged, not remembered") {
  Board b;
  gateBoard(b);
  b.commands(isoCommand("cmd_old", "abrir", kNow - 1));
  b.commands(isoCommand("cmd_now", "abrir", kNow));  // expiresAt == now has passed too
  CHECK(b.gate.motorStarts() == 0);
  CHECK(b.uplink.of("ack").empty());
  CHECK(b.platform.count(R"("verdict":"expired")") == 2);
  // Expiry in epoch ms works as well, and an unreadable expiry counts as expired.
  b.commands(fake::command("cmd_num", "abrir", kNow - 5));
  b.commands(R"({"id":"cmd_bad","command":"abrir","expiresAt":"mañana"})");
  b.commands(R"({"id":"cmd_none","command":"abrir"})");
  CHECK(b.gate.motorStarts() == 0);
  CHECK(b.platform.count(R"("verdict":"expired")") == 5);
}

TEST_CASE("without a clock no command is executed: its age cannot be judged") {
  Board b;
  b.clock.wall = 0;
  gateBoard(b);
  b.commands(isoCommand("cmd_1", "abrir", kNow + 10000));
  CHECK(b.gate.motorStarts() == 0);
  CHECK(b.platform.count(R"("verdict":"no_clock")") == 1);
  // Not remembered either: once the clock is set the same command (if not expired) runs.
  b.clock.wall = kNow;
  b.commands(isoCommand("cmd_1", "abrir", kNow + 10000));
  CHECK(b.gate.motorStarts() == 1);
}

TEST_CASE("detener stops a moving gate; the ack says where it stopped") {
  Board b;
  gateBoard(b);
  b.commands(isoCommand("cmd_1", "abrir", kNow + 10000));
  b.gate.closed = false;
  b.run(300);
  b.commands(isoCommand("cmd_2", "detener", kNow + 10000));
  CHECK(b.gate.direction == 0);
  CHECK(b.uplink.of("ack").back().body == R"({"id":"cmd_2","success":true,"state":"abierta"})");
}

TEST_CASE("a gate that does not arrive reports falla after its travel timeout") {
  Board b;
  gateBoard(b);
  b.commands(isoCommand("cmd_1", "cerrar", kNow + 10000));  // already closed
  CHECK(b.uplink.of("ack").back().body == R"({"id":"cmd_1","success":true,"state":"cerrada"})");
  b.commands(isoCommand("cmd_2", "abrir", kNow + 10000));
  b.gate.closed = false;  // leaves, never reaches the open switch
  b.run(10500);
  CHECK(b.device->gateState() == GateState::Falla);
  CHECK(b.gate.direction == 0);
  CHECK(b.uplink.of("telemetry").back().body.find("\"falla\"") != std::string::npos);
}

TEST_CASE("an unsupported command is refused with success:false, and remembered like any other") {
  Board b;
  gateBoard(b);
  b.commands(isoCommand("cmd_1", "read", kNow + 10000));
  CHECK(b.uplink.of("ack").back().body == R"({"id":"cmd_1","success":false,"message":"Comando no soportado","state":"cerrada"})");
  b.commands(isoCommand("cmd_1", "read", kNow + 10000));
  CHECK(b.uplink.of("ack").back().body == R"({"id":"cmd_1","success":false,"message":"Comando no soportado","state":"cerrada"})");
  CHECK(b.platform.count(R"("event":"executed")") == 1);
}

TEST_CASE("level sensor: read acks first, then sends a fresh reading; restart acks then reboots once") {
  Board b;
  b.config.readingIntervalMs = 100000;
  b.start();
  b.device->loop();
  const size_t before = b.uplink.of("telemetry").size();
  b.commands(isoCommand("cmd_r", "read", kNow + 10000));
  CHECK(b.uplink.sent.back().kind == "ack");
  CHECK(b.uplink.sent.back().body == R"({"id":"cmd_r","success":true})");
  b.device->loop();
  CHECK(b.uplink.of("telemetry").size() == before + 1);
  b.commands(isoCommand("cmd_x", "restart", kNow + 10000));
  b.device->loop();
  CHECK(b.platform.restarts == 1);
  // After the reboot the server may hand the same restart out again: it is only acknowledged.
  b.reboot();
  b.commands(isoCommand("cmd_x", "restart", kNow + 10000));
  b.device->loop();
  CHECK(b.platform.restarts == 1);
  CHECK(b.uplink.of("ack").back().body == R"({"id":"cmd_x","success":true})");
}

TEST_CASE("commands arrive as one object (MQTT), an array (long poll) or inside a 202 body") {
  Board b;
  gateBoard(b);
  b.commands("[" + isoCommand("a", "abrir", kNow + 10000) + "," + isoCommand("b", "detener", kNow + 10000) + "]");
  CHECK(b.uplink.of("ack").size() == 2);
  b.uplink.then(202, nullptr, R"({"accepted":1,"duplicates":0,"commands":[)" + isoCommand("c", "cerrar", kNow + 10000) + "]}");
  b.run(1100);
  CHECK(b.uplink.of("ack").back().id == "c");
  b.commands("[]");
  b.commands("not json");
  b.commands(R"([{"command":"abrir"},{"id":"","command":"abrir"},{"id":"x"},17])");
  CHECK(b.platform.count(R"("verdict":"invalid")") == 5);
  CHECK(b.uplink.of("ack").size() == 3);
}

TEST_CASE("a lost ack is retried with back-off; a 404 ack is given up") {
  Board b;
  gateBoard(b);
  b.uplink.then(0);  // ack: network error
  b.commands(isoCommand("cmd_1", "abrir", kNow + 10000));
  CHECK_FALSE(b.device->idle());
  b.run(2000);
  const auto acks = b.uplink.of("ack");
  REQUIRE(acks.size() == 2);
  CHECK(acks[1].body == R"({"id":"cmd_1","success":true,"state":"abriendo"})");
  b.run(200);
  CHECK(b.device->idle());
  b.uplink.then(404, nullptr, R"({"error":"x","code":"COMMAND_NOT_FOUND"})");
  b.commands(isoCommand("cmd_2", "detener", kNow + 10000));
  b.run(5000);
  CHECK(b.uplink.of("ack").size() == 3);
}

TEST_CASE("the executed-id ring forgets the oldest ids first") {
  ExecutedLog log;
  char id[16];
  for (int i = 0; i < AGUA_EXECUTED_IDS + 1; ++i) {
    snprintf(id, sizeof id, "cmd_%d", i);
    log.add(id, CommandOutcome::Succeeded);
  }
  CHECK(log.find("cmd_0") == CommandOutcome::None);
  CHECK(log.find("cmd_1") == CommandOutcome::Succeeded);
  snprintf(id, sizeof id, "cmd_%d", AGUA_EXECUTED_IDS);
  CHECK(log.find(id) == CommandOutcome::Succeeded);
  fake::Store store;
  REQUIRE(log.save(store));
  ExecutedLog again;
  REQUIRE(again.load(store));
  CHECK(again.find("cmd_1") == CommandOutcome::Succeeded);
}
