// A tiny JSON writer and reader over caller-owned buffers: no allocation, no recursion beyond a
// fixed depth, no floating-point formatting from libc (printf("%f") alone costs kilobytes).
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace agua {

class JsonWriter {
 public:
  JsonWriter(char* buf, size_t cap);

  JsonWriter& beginObject();
  JsonWriter& endObject();
  JsonWriter& beginArray();
  JsonWriter& endArray();
  JsonWriter& key(const char* k);
  JsonWriter& str(const char* s);
  JsonWriter& num(int64_t v);
  // A decimal with at most `decimals` digits after the point, trailing zeros trimmed.
  JsonWriter& fixed(float v, uint8_t decimals);
  JsonWriter& boolean(bool b);

  // Keeps `n` bytes free for what must follow (a batch's closing bracket).
  void reserve(size_t n) { reserve_ = n; }

  // false once anything did not fit; the text is then incomplete.
  bool ok() const { return !overflow_; }
  size_t size() const { return len_; }
  const char* data() const { return buf_; }

  // Undo a partly written element, e.g. the reading that did not fit in a batch.
  struct Mark {
    size_t len;
    uint32_t first;
    uint8_t depth;
    bool afterKey;
  };
  Mark mark() const { return {len_, first_, depth_, afterKey_}; }
  void rewind(const Mark& m);

 private:
  void put(char c);
  void raw(const char* s);
  void quoted(const char* s);
  void separate();
  JsonWriter& open(char c);
  JsonWriter& close(char c);

  char* buf_;
  size_t cap_;
  size_t len_ = 0;
  size_t reserve_ = 0;
  uint32_t first_ = 1;  // bit d: the container at depth d has no element yet
  uint8_t depth_ = 0;
  bool afterKey_ = false;
  bool overflow_ = false;
};

enum class JsonType : uint8_t { Invalid, Null, Bool, Number, String, Array, Object };

// A slice of a JSON text that was checked by jsonParse.
struct JsonValue {
  const char* p = nullptr;
  size_t n = 0;
  JsonType type() const;
};

// Checks that text[0..len) is exactly one well-formed JSON value, nested at most 16 deep.
bool jsonParse(const char* text, size_t len, JsonValue& out);
bool jsonMember(const JsonValue& object, const char* key, JsonValue& out);
// Decodes a string value (escapes included) into out; false if not a string or longer than cap-1.
bool jsonString(const JsonValue& v, char* out, size_t cap);
// An integer number (no fraction, no exponent) that fits int64.
bool jsonInt(const JsonValue& v, int64_t& out);

class JsonArrayIter {
 public:
  explicit JsonArrayIter(const JsonValue& array);
  bool next(JsonValue& out);

 private:
  const char* p_;
  const char* end_;
};

}  // namespace agua
