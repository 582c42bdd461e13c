#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "agua_json.h"

using namespace agua;

TEST_CASE("JsonWriter writes nested objects and arrays with commas in the right places") {
  char buf[200];
  JsonWriter w(buf, sizeof buf);
  w.beginObject().key("a").num(1).key("b").beginArray().num(-2).str("x").boolean(true).endArray();
  w.key("c").beginObject().endObject().key("d").beginArray().endArray().endObject();
  CHECK(w.ok());
  CHECK(std::string(w.data()) == R"({"a":1,"b":[-2,"x",true],"c":{},"d":[]})");
}

TEST_CASE("JsonWriter escapes quotes, backslashes and control characters, passes UTF-8") {
  char buf[100];
  JsonWriter w(buf, sizeof buf);
  w.str("a\"b\\c\nd\x01 compuerta ñ");
  CHECK(std::string(w.data()) == "\"a\\\"b\\\\c\\nd\\u0001 compuerta ñ\"");
}

TEST_CASE("JsonWriter numbers: int64 extremes and fixed decimals without printf") {
  char buf[200];
  JsonWriter w(buf, sizeof buf);
  w.beginArray().num(0).num(INT64_MIN).num(INT64_MAX).fixed(3.42f, 3).fixed(-0.5f, 2).fixed(2.0f, 3);
  w.fixed(0.004f, 2).fixed(-12.345f, 3).endArray();
  CHECK(std::string(w.data()) == "[0,-9223372036854775808,9223372036854775807,3.42,-0.5,2,0,-12.345]");
}

TEST_CASE("JsonWriter refuses what does not fit and can rewind to a mark") {
  char buf[16];
  JsonWriter w(buf, sizeof buf);
  w.beginArray().num(12345);
  const JsonWriter::Mark m = w.mark();
  w.str("far too long for this");
  CHECK_FALSE(w.ok());
  w.rewind(m);
  CHECK(w.ok());
  w.endArray();
  CHECK(std::string(w.data()) == "[12345]");
  // reserve keeps room for a closing bracket
  char small[8];
  JsonWriter r(small, sizeof small);
  r.reserve(1);
  r.beginArray().num(12345);
  CHECK(r.ok());
  r.num(1);
  CHECK_FALSE(r.ok());
}

TEST_CASE("jsonParse accepts one well-formed value and nothing else") {
  JsonValue v;
  for (const char* good : {"{}", " [1, 2.5e-3, -0, \"x\", true, false, null] ", R"({"a":{"b":[{}]}})", "\"\\u00e9\""}) {
    CHECK_MESSAGE(jsonParse(good, strlen(good), v), good);
  }
  for (const char* bad : {"", "{", "{\"a\"}", "{\"a\":}", "[1,]", "[01]", "tru", "\"\\x\"", "{} {}", "[1 2]",
                          "\"unterminated", "{'a':1}", "-", "1.", "1e", "\"a\nb\""}) {
    CHECK_FALSE_MESSAGE(jsonParse(bad, strlen(bad), v), bad);
  }
}

TEST_CASE("jsonParse bounds nesting so a hostile body cannot exhaust the stack") {
  std::string deep(16, '['), deeper(17, '[');
  deep += std::string(16, ']');
  deeper += std::string(17, ']');
  JsonValue v;
  CHECK(jsonParse(deep.data(), deep.size(), v));
  CHECK_FALSE(jsonParse(deeper.data(), deeper.size(), v));
}

TEST_CASE("jsonMember, jsonString, jsonInt and JsonArrayIter read a 202 body") {
  const char* body = R"({"accepted":2,"duplicates":1,"commands":[{"id":"cmd_\u00e9\ud83d\ude00","command":"abrir"},{"id":"b"}]})";
  JsonValue root, v;
  REQUIRE(jsonParse(body, strlen(body), root));
  int64_t n = 0;
  REQUIRE(jsonMember(root, "accepted", v));
  CHECK(jsonInt(v, n));
  CHECK(n == 2);
  CHECK_FALSE(jsonMember(root, "missing", v));
  REQUIRE(jsonMember(root, "commands", v));
  JsonArrayIter it(v);
  JsonValue item, id;
  REQUIRE(it.next(item));
  REQUIRE(jsonMember(item, "id", id));
  char out[32];
  REQUIRE(jsonString(id, out, sizeof out));
  CHECK(std::string(out) == "cmd_é😀");
  REQUIRE(it.next(item));
  CHECK_FALSE(it.next(item));
  char tiny[4];
  CHECK_FALSE(jsonString(id, tiny, sizeof tiny));  // too long: refused, not cut
}

TEST_CASE("jsonInt refuses fractions, exponents and overflow; jsonString refuses non-strings and NUL") {
  JsonValue v;
  int64_t n;
  char out[8];
  for (const char* bad : {"1.5", "1e3", "9223372036854775808", "\"1\""}) {
    REQUIRE(jsonParse(bad, strlen(bad), v));
    CHECK_FALSE_MESSAGE(jsonInt(v, n), bad);
  }
  REQUIRE(jsonParse("-42", 3, v));
  CHECK((jsonInt(v, n) && n == -42));
  REQUIRE(jsonParse("12", 2, v));
  CHECK_FALSE(jsonString(v, out, sizeof out));
  REQUIRE(jsonParse("\"a\\u0000b\"", 10, v));
  CHECK_FALSE(jsonString(v, out, sizeof out));
  REQUIRE(jsonParse("\"\\ud800\"", 8, v));
  CHECK_FALSE(jsonString(v, out, sizeof out));
}
