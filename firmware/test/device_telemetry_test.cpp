#include <doctest/doctest.h>

#include <set>
#include <string>

#include "fakes.h"

using namespace agua;
using fake::Board;

namespace {

// Messages of a telemetry body, as strings, using the core's own reader only to split the array.
std::vector<std::string> messages(const std::string& body) {
  JsonValue root, item;
  std::vector<std::string> out;
  REQUIRE(jsonParse(body.data(), body.size(), root));
  JsonArrayIter it(root);
  while (it.next(item)) out.emplace_back(item.p, item.n);
  return out;
}

int64_t member(const std::string& msg, const char* key) {
  JsonValue root, v;
  int64_t n = -1;
  REQUIRE(jsonParse(msg.data(), msg.size(), root));
  if (jsonMember(root, key, v)) jsonInt(v, n);
  return n;
}

}  // namespace

TEST_CASE("a level reading is the protocol's message, with ts, seq and boot") {
  Board b;
  b.platform.nextRandom = 0x00c0ffee;
  b.start();
  b.device->loop();
  const auto sent = b.uplink.of("telemetry");
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].body ==
        R"([{"deviceId":"esp32_nivel_01","type":"level_sensor","data":{"value":3.42,"unit":"m"},"ts":1795000000000,"seq":0,"boot":"00c0ffee"}])");
}

TEST_CASE("a gate reading carries its state as the value") {
  Board b(DeviceType::MotorizedGate, "esp32_compuerta_01");
  b.platform.nextRandom = 1;
  b.start();
  b.device->loop();
  const auto sent = b.uplink.of("telemetry");
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].body ==
        R"([{"deviceId":"esp32_compuerta_01","type":"motorized_gate","data":{"value":"cerrada"},"ts":1795000000000,"seq":0,"boot":"00000001"}])");
}

TEST_CASE("seq counts up within a boot; a restart picks a new boot and starts at 0") {
  Board b;
  b.start();
  b.run(3000, 1000);
  auto sent = b.uplink.of("telemetry");
  REQUIRE(sent.size() == 3);
  for (size_t i = 0; i < 3; ++i) CHECK(member(messages(sent[i].body)[0], "seq") == static_cast<int64_t>(i));
  const uint32_t first = b.device->bootId();
  b.reboot();
  CHECK(b.device->bootId() != first);
  b.device->loop();
  sent = b.uplink.of("telemetry");
  CHECK(member(messages(sent.back().body)[0], "seq") == 0);
}

TEST_CASE("a new boot differs from the last one even when the RNG repeats itself after reset") {
  Board b;
  b.platform.nextRandom = 77;
  b.start();
  const uint32_t first = b.device->bootId();
  b.start();  // same random number again
  CHECK(b.device->bootId() != first);
}

TEST_CASE("resume (deep-sleep wake) continues the stored boot and seq") {
  Board b;
  b.start();
  b.run(2000, 1000);
  const uint32_t boot = b.device->bootId();
  b.start(true);
  CHECK(b.device->bootId() == boot);
  b.device->loop();
  CHECK(member(messages(b.uplink.of("telemetry").back().body)[0], "seq") == 2);
}

TEST_CASE("offline: readings are buffered and go out as one batch, in order, when the link returns") {
  Board b;
  b.uplink.up = false;
  b.start();
  b.run(5000, 1000);
  CHECK(b.uplink.sent.empty());
  CHECK(b.device->queued() == 5);
  b.uplink.up = true;
  b.device->loop();  // the sixth reading falls due first, then everything goes
  const auto sent = b.uplink.of("telemetry");
  REQUIRE(sent.size() == 1);
  const auto msgs = messages(sent[0].body);
  REQUIRE(msgs.size() == 6);
  for (size_t i = 0; i < 6; ++i) {
    CHECK(member(msgs[i], "seq") == static_cast<int64_t>(i));
    CHECK(member(msgs[i], "ts") == fake::kNow + static_cast<int64_t>(i) * 1000);  // each keeps its own time
  }
  CHECK(b.device->queued() == 0);
  CHECK(b.device->idle());
}

TEST_CASE("failed sends keep the batch and resend the same boot/seq; the server's duplicates count is reported") {
  Board b;
  b.config.readingIntervalMs = 1000000;  // one reading only
  b.start();
  b.uplink.then(0);    // network error
  b.uplink.then(502);  // bad gateway
  b.uplink.then(202, nullptr, R"({"accepted":0,"duplicates":1,"commands":[]})");  // it had been stored
  b.device->loop();
  b.clock.advance(1300);
  b.device->loop();
  b.clock.advance(3000);
  b.device->loop();
  const auto sent = b.uplink.of("telemetry");
  REQUIRE(sent.size() == 3);
  CHECK(sent[1].body == sent[0].body);
  CHECK(sent[2].body == sent[0].body);
  CHECK(b.platform.count(R"("event":"sent","count":1,"accepted":0,"duplicates":1)") == 1);
  CHECK(b.device->queued() == 0);
}

TEST_CASE("back-off: nothing is sent while backing off; 429 waits its Retry-After") {
  Board b;
  b.start();
  b.uplink.then(429, "5");
  b.device->loop();
  for (int i = 0; i < 40; ++i) {  // 4 s: still inside Retry-After
    b.clock.advance(100);
    b.device->loop();
  }
  CHECK(b.uplink.of("telemetry").size() == 1);
  CHECK(b.platform.count(R"("event":"send_failed","status":"throttled")") == 1);
  b.run(2000);
  CHECK(b.uplink.of("telemetry").size() == 2);
  CHECK(b.device->queued() == 0);
}

TEST_CASE("back-off grows on repeated failures and 503 with Retry-After is throttling") {
  Board b;
  b.config.readingIntervalMs = 1000000;
  b.start();
  for (int i = 0; i < 5; ++i) b.uplink.then(500);
  b.run(20000, 50);
  // 1 + 2 + 4 + 8 s (±20 %) between attempts: 4 or 5 attempts within 20 s, not 400.
  const size_t attempts = b.uplink.of("telemetry").size();
  CHECK((attempts >= 4 && attempts <= 5));
  Board c;
  c.start();
  c.uplink.then(503, "2");
  c.device->loop();
  CHECK(c.platform.count(R"("status":"throttled")") == 1);
}

TEST_CASE("401/403: the refused readings are not resent, and the next send waits a minute") {
  Board b;
  b.config.readingIntervalMs = 10000;
  b.start();
  b.uplink.then(403, nullptr, R"({"error":"x","code":"DEVICE_DISABLED"})");
  b.device->loop();
  CHECK(b.device->queued() == 0);
  CHECK(b.platform.count(R"("reason":"unauthorized")") == 1);
  b.run(55000, 500);  // more readings wait meanwhile
  CHECK(b.uplink.of("telemetry").size() == 1);
  CHECK(b.device->queued() > 0);
  b.run(20000, 500);
  const auto sent = b.uplink.of("telemetry");
  REQUIRE(sent.size() >= 2);
  CHECK(sent[1].body.find("\"seq\":0,") == std::string::npos);  // not the refused one again
}

TEST_CASE("a refused batch drops only the message named by details.index") {
  Board b;
  b.uplink.up = false;
  b.start();
  b.run(3000, 1000);
  b.uplink.up = true;
  b.uplink.then(422, nullptr, R"({"error":"x","code":"VALUE_INVALID","details":{"index":1}})");
  b.device->loop();  // a fourth reading, then the batch 0..3 is refused for its message 1
  b.device->loop();
  const auto sent = b.uplink.of("telemetry");
  REQUIRE(sent.size() == 2);
  const auto retry = messages(sent[1].body);
  REQUIRE(retry.size() == 3);
  CHECK(member(retry[0], "seq") == 0);
  CHECK(member(retry[1], "seq") == 2);
  CHECK(member(retry[2], "seq") == 3);
  // Without an index the whole batch goes (it would never be accepted).
  Board c;
  c.start();
  c.uplink.then(400, nullptr, R"({"error":"x","code":"MESSAGE_INVALID"})");
  c.device->loop();
  CHECK(c.device->queued() == 0);
  CHECK(c.platform.count(R"("event":"dropped","count":1,"reason":"refused")") == 1);
}

TEST_CASE("a full queue drops the oldest reading, and a long outage goes out as several batches") {
  Board b;
  b.uplink.up = false;
  b.start();
  b.run((AGUA_QUEUE_CAPACITY + 3) * 1000, 1000);
  CHECK(b.device->queued() == AGUA_QUEUE_CAPACITY);
  CHECK(b.platform.count(R"("reason":"queue_full")") == 3);
  b.uplink.up = true;
  for (int i = 0; i < 10 && b.device->queued() > 0; ++i) b.device->loop();  // one more reading, then batches
  const auto sent = b.uplink.of("telemetry");
  CHECK(sent.size() > 1);
  std::set<int64_t> seqs;
  for (const auto& s : sent) {
    CHECK(s.body.size() <= AGUA_BATCH_BYTES);
    for (const auto& m : messages(s.body)) seqs.insert(member(m, "seq"));
  }
  CHECK(seqs.size() == AGUA_QUEUE_CAPACITY);
  CHECK(*seqs.begin() == 4);  // 0..3 were the oldest
}

TEST_CASE("buffered readings survive a power cut and keep their original boot/seq") {
  Board b;
  b.uplink.up = false;
  b.start();
  b.run(3000, 1000);
  const uint32_t oldBoot = b.device->bootId();
  char oldBootHex[9];
  bootString(oldBoot, oldBootHex);
  b.reboot();
  CHECK(b.device->queued() == 3);
  b.uplink.up = true;
  b.device->loop();  // one new reading, then the upload
  const auto msgs = messages(b.uplink.of("telemetry").at(0).body);
  REQUIRE(msgs.size() == 4);
  CHECK(msgs[0].find(std::string("\"boot\":\"") + oldBootHex + "\"") != std::string::npos);
  CHECK(member(msgs[2], "seq") == 2);
  CHECK(msgs[3].find(std::string("\"boot\":\"") + oldBootHex + "\"") == std::string::npos);
  CHECK(member(msgs[3], "seq") == 0);
}

TEST_CASE("the reading is persisted before it is reported, and removed only after the server took it") {
  Board b;
  b.uplink.up = false;
  b.start();
  b.device->loop();
  Board copy;  // another board reading the same flash
  copy.store = b.store;
  copy.uplink.up = false;
  copy.start();
  CHECK(copy.device->queued() == 1);
  b.uplink.up = true;
  b.uplink.then(0);
  b.clock.advance(100);
  b.device->loop();
  copy.store = b.store;
  copy.start();
  CHECK(copy.device->queued() == 1);  // a failed send keeps it
}

TEST_CASE("without a clock: no ts; fresh readings are sent, stale ones dropped, and times filled in once set") {
  Board b;
  b.clock.wall = 0;
  b.start();
  b.device->loop();
  const auto first = messages(b.uplink.of("telemetry").at(0).body);
  CHECK(first[0].find("\"ts\"") == std::string::npos);
  // Link down for longer than a reading may wait without a time.
  b.uplink.up = false;
  b.run(12000, 1000);
  b.uplink.up = true;
  b.device->loop();
  CHECK(b.platform.count(R"("reason":"no_clock")") == 1);
  const auto batch = messages(b.uplink.of("telemetry").back().body);
  CHECK(batch.size() < 12);
  // Link down again, then SNTP answers: the waiting readings get their real times.
  b.uplink.up = false;
  b.run(3000, 1000);
  b.clock.wall = fake::kNow;
  b.uplink.up = true;
  b.device->loop();
  const auto timed = messages(b.uplink.of("telemetry").back().body);
  REQUIRE(timed.size() == 3);
  CHECK(member(timed[0], "ts") == fake::kNow - 2000);
  CHECK(member(timed[1], "ts") == fake::kNow - 1000);
  CHECK(member(timed[2], "ts") == fake::kNow);
}

TEST_CASE("readings without a time do not survive a restart") {
  Board b;
  b.clock.wall = 0;
  b.uplink.up = false;
  b.start();
  b.run(2000, 1000);
  b.reboot();
  CHECK(b.platform.count(R"("droppedClockless":2)") == 1);
}

TEST_CASE("a failed probe gives no reading; maxReadings stops periodic readings") {
  Board b;
  b.probe.ok = false;
  b.start();
  b.device->loop();
  CHECK(b.platform.count(R"("event":"probe_failed")") == 1);
  CHECK(b.device->queued() == 0);
  Board c;
  c.config.maxReadings = 3;
  c.start();
  c.run(10000, 500);
  CHECK(c.device->readingsTaken() == 3);
  CHECK(c.uplink.of("telemetry").size() == 3);
  CHECK(c.device->idle());
}

TEST_CASE("MQTT first, HTTP when the broker is away") {
  fake::Uplink mqtt, http;
  FallbackUplink link(mqtt, http);
  link.sendTelemetry("[]", 2);
  CHECK((mqtt.sent.size() == 1 && http.sent.empty()));
  mqtt.up = false;
  link.sendAck("c", "{}", 2);
  CHECK(http.of("ack").size() == 1);
  http.up = false;
  CHECK_FALSE(link.ready());
}
