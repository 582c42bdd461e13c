#include <doctest/doctest.h>

#include <string>

#include "agua_backoff.h"
#include "agua_http.h"
#include "agua_store.h"
#include "agua_time.h"
#include "fakes.h"

using namespace agua;

TEST_CASE("parseIsoTime reads the server's expiresAt and offsets to epoch ms") {
  int64_t ms = 0;
  CHECK((parseIsoTime("1970-01-01T00:00:00Z", ms) && ms == 0));
  CHECK((parseIsoTime("2026-11-22T10:00:10.000Z", ms) && ms == 1795341610000LL));
  CHECK((parseIsoTime("2026-11-22T11:00:10.5+01:00", ms) && ms == 1795341610500LL));
  CHECK((parseIsoTime("2026-11-22T05:00:10.123456-05:00", ms) && ms == 1795341610123LL));
  CHECK((parseIsoTime("2024-02-29T00:00:00Z", ms) && ms == 1709164800000LL));
  for (const char* bad : {"2026-11-22T10:00:10", "2026-11-22 10:00:10Z", "2025-02-29T00:00:00Z", "2026-13-01T00:00:00Z",
                          "2026-11-22T24:00:00Z", "2026-11-22T10:00:10.Z", "2026-11-22T10:00:10Zjunk", "", "2026-11-22T10:00:10+0100"}) {
    CHECK_FALSE_MESSAGE(parseIsoTime(bad, ms), bad);
  }
  CHECK(fake::iso(1795341610000LL) == "2026-11-22T10:00:10.000Z");
}

TEST_CASE("classifyHttp maps statuses to what the device does next") {
  CHECK(classifyHttp(202, nullptr, nullptr, 0).status == SendStatus::Ok);
  CHECK(classifyHttp(200, nullptr, nullptr, 0).status == SendStatus::Ok);
  UplinkResult r = classifyHttp(429, "7", nullptr, 0);
  CHECK((r.status == SendStatus::Throttled && r.retryAfterMs == 7000));
  CHECK(classifyHttp(429, nullptr, nullptr, 0).retryAfterMs == 1000);
  r = classifyHttp(503, " 3", nullptr, 0);
  CHECK((r.status == SendStatus::Throttled && r.retryAfterMs == 3000));
  CHECK(classifyHttp(503, nullptr, nullptr, 0).status == SendStatus::Retry);
  for (int s : {0, -1, 408, 500, 502, 504}) CHECK(classifyHttp(s, nullptr, nullptr, 0).status == SendStatus::Retry);
  for (int s : {401, 403}) CHECK(classifyHttp(s, nullptr, nullptr, 0).status == SendStatus::Unauthorized);
  for (int s : {400, 404, 413, 415, 422}) CHECK(classifyHttp(s, nullptr, nullptr, 0).status == SendStatus::Rejected);
  CHECK(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT") == 0);
  CHECK(parseRetryAfter("999999") == 3600000);
}

TEST_CASE("request paths are percent-encoded") {
  char buf[128];
  REQUIRE(ackPath(buf, sizeof buf, "esp32_compuerta_01", "cmd_a/b c"));
  CHECK(std::string(buf) == "/api/v1/devices/esp32_compuerta_01/commands/cmd_a%2Fb%20c/ack");
  REQUIRE(pollPath(buf, sizeof buf, "esp32_nivel_01", 25));
  CHECK(std::string(buf) == "/api/v1/devices/esp32_nivel_01/commands?wait=25");
  CHECK_FALSE(ackPath(buf, 20, "esp32_compuerta_01", "x"));
}

TEST_CASE("Backoff: exponential from base to cap with ±20 % jitter, Retry-After honoured, reset on success") {
  Backoff b(1000, 30000);
  // random % 41 == 20 → exactly 100 %
  CHECK(b.failed(0, 0, 20) == 1000);
  CHECK(b.failed(0, 0, 20) == 2000);
  CHECK(b.failed(0, 0, 20) == 4000);
  CHECK(b.failed(0, 0, 0) == 6400);    // 8000 × 80 %
  CHECK(b.failed(0, 0, 40) == 19200);  // 16000 × 120 %
  for (int i = 0; i < 40; ++i) b.failed(0, 0, 40);
  CHECK(b.failed(0, 0, 40) == 30000);  // capped even with jitter
  CHECK(b.failed(0, 0, 0) == 24000);
  CHECK_FALSE(b.ready(23999));
  CHECK(b.ready(24000));
  b.succeeded();
  // The server's Retry-After: never sooner, at most 10 % later...
  const uint32_t d = b.failed(100, 5000, 100);
  CHECK((d >= 5000 && d <= 5500));
  CHECK_FALSE(b.ready(100 + 4999));
  // ...and when refusals keep coming, the growing back-off takes over.
  for (int i = 0; i < 10; ++i) b.failed(0, 0, 20);
  CHECK(b.failed(0, 5000, 20) == 30000);
  b.succeeded();
  CHECK(b.ready(0));
  CHECK(b.failed(0, 0, 20) == 1000);
}

namespace {
struct Rec {
  static constexpr uint16_t kVersion = 3;
  RecordHeader header;
  uint32_t value;
};
}  // namespace

TEST_CASE("records are framed: a torn or foreign record reads as absent") {
  fake::Store store;
  Rec a{};
  a.value = 42;
  REQUIRE(saveRecord(store, "r", a));
  Rec b{};
  CHECK((loadRecord(store, "r", b) && b.value == 42));
  store.records["r"][sizeof(RecordHeader)] ^= 1;  // a flipped bit
  CHECK_FALSE(loadRecord(store, "r", b));
  CHECK(b.value == 0);
  store.records["r"].resize(4);  // torn
  CHECK_FALSE(loadRecord(store, "r", b));
  CHECK_FALSE(loadRecord(store, "absent", b));
  CHECK(crc32("123456789", 9) == 0xCBF43926u);
}
