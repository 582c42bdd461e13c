#include "agua_json.h"

#include <string.h>

namespace agua {

// ---- writer ------------------------------------------------------------------------------------

JsonWriter::JsonWriter(char* buf, size_t cap) : buf_(buf), cap_(cap) {
  if (cap_ == 0) overflow_ = true;
  else buf_[0] = '\0';
}

void JsonWriter::put(char c) {
  // One byte always stays free for the terminating NUL.
  if (overflow_ || len_ + 1 + reserve_ >= cap_) {
    overflow_ = true;
    return;
  }
  buf_[len_++] = c;
  buf_[len_] = '\0';
}

void JsonWriter::raw(const char* s) {
  while (*s) put(*s++);
}

void JsonWriter::quoted(const char* s) {
  static const char hex[] = "0123456789abcdef";
  put('"');
  for (; *s; ++s) {
    const unsigned char c = static_cast<unsigned char>(*s);
    if (c == '"' || c == '\\') {
      put('\\');
      put(static_cast<char>(c));
    } else if (c == '\n') {
      raw("\\n");
    } else if (c == '\r') {
      raw("\\r");
    } else if (c == '\t') {
      raw("\\t");
    } else if (c < 0x20) {
      raw("\\u00");
      put(hex[c >> 4]);
      put(hex[c & 15]);
    } else {
      put(static_cast<char>(c));  // UTF-8 passes through
    }
  }
  put('"');
}

void JsonWriter::separate() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (depth_ == 0) return;
  const uint32_t bit = 1u << depth_;
  if (first_ & bit) first_ &= ~bit;
  else put(',');
}

JsonWriter& JsonWriter::open(char c) {
  separate();
  put(c);
  if (depth_ >= 31) overflow_ = true;  // deeper than the bit set can track
  else {
    ++depth_;
    first_ |= 1u << depth_;
  }
  return *this;
}

JsonWriter& JsonWriter::close(char c) {
  put(c);
  if (depth_ > 0) --depth_;
  return *this;
}

JsonWriter& JsonWriter::beginObject() { return open('{'); }
JsonWriter& JsonWriter::endObject() { return close('}'); }
JsonWriter& JsonWriter::beginArray() { return open('['); }
JsonWriter& JsonWriter::endArray() { return close(']'); }

JsonWriter& JsonWriter::key(const char* k) {
  separate();
  quoted(k);
  put(':');
  afterKey_ = true;
  return *this;
}

JsonWriter& JsonWriter::str(const char* s) {
  separate();
  quoted(s);
  return *this;
}

JsonWriter& JsonWriter::num(int64_t v) {
  separate();
  char digits[21];
  int n = 0;
  // Work on the magnitude as unsigned so that INT64_MIN does not overflow.
  uint64_t m = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  do {
    digits[n++] = static_cast<char>('0' + m % 10);
    m /= 10;
  } while (m != 0);
  if (v < 0) put('-');
  while (n > 0) put(digits[--n]);
  return *this;
}

JsonWriter& JsonWriter::fixed(float v, uint8_t decimals) {
  if (decimals > 6) decimals = 6;
  int64_t scale = 1;
  for (uint8_t i = 0; i < decimals; ++i) scale *= 10;
  const float scaled = v * static_cast<float>(scale);
  // Out of int64 range (or not finite): JSON has no such number; callers check finiteness first.
  if (!(scaled > -9.0e18f && scaled < 9.0e18f)) {
    overflow_ = true;
    return *this;
  }
  int64_t r = static_cast<int64_t>(scaled + (scaled >= 0 ? 0.5f : -0.5f));
  int64_t whole = r / scale;
  int64_t frac = r % scale;
  if (frac < 0) frac = -frac;
  // "-0.5": the whole part alone would lose the sign.
  if (r < 0 && whole == 0) {
    separate();
    put('-');
    afterKey_ = true;  // the sign is part of this value: no comma before the digits
  }
  num(whole);
  if (frac == 0) return *this;
  char out[7];
  int n = decimals;
  out[n] = '\0';
  for (int i = n - 1; i >= 0; --i) {
    out[i] = static_cast<char>('0' + frac % 10);
    frac /= 10;
  }
  while (n > 0 && out[n - 1] == '0') out[--n] = '\0';
  put('.');
  raw(out);
  return *this;
}

JsonWriter& JsonWriter::boolean(bool b) {
  separate();
  raw(b ? "true" : "false");
  return *this;
}

void JsonWriter::rewind(const Mark& m) {
  len_ = m.len;
  first_ = m.first;
  depth_ = m.depth;
  afterKey_ = m.afterKey;
  overflow_ = false;
  if (cap_ > 0) buf_[len_] = '\0';
}

// ---- reader ------------------------------------------------------------------------------------

namespace {

constexpr int kMaxDepth = 16;

const char* ws(const char* p, const char* e) {
  while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) ++p;
  return p;
}

bool isHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

const char* skipString(const char* p, const char* e) {
  ++p;  // opening quote
  while (p < e) {
    const char c = *p++;
    if (c == '"') return p;
    if (static_cast<unsigned char>(c) < 0x20) return nullptr;
    if (c != '\\') continue;
    if (p >= e) return nullptr;
    const char x = *p++;
    if (x == 'u') {
      for (int i = 0; i < 4; ++i, ++p) {
        if (p >= e || !isHex(*p)) return nullptr;
      }
    } else if (!strchr("\"\\/bfnrt", x) || x == '\0') {
      return nullptr;
    }
  }
  return nullptr;
}

const char* skipNumber(const char* p, const char* e) {
  if (p < e && *p == '-') ++p;
  if (p >= e || !isDigit(*p)) return nullptr;
  if (*p == '0') ++p;
  else while (p < e && isDigit(*p)) ++p;
  if (p < e && *p == '.') {
    ++p;
    if (p >= e || !isDigit(*p)) return nullptr;
    while (p < e && isDigit(*p)) ++p;
  }
  if (p < e && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p < e && (*p == '+' || *p == '-')) ++p;
    if (p >= e || !isDigit(*p)) return nullptr;
    while (p < e && isDigit(*p)) ++p;
  }
  return p;
}

const char* skipLiteral(const char* p, const char* e, const char* word) {
  const size_t n = strlen(word);
  if (static_cast<size_t>(e - p) < n || memcmp(p, word, n) != 0) return nullptr;
  return p + n;
}

// Returns the end of the value starting at p (after leading spaces), or nullptr if malformed.
const char* skipValue(const char* p, const char* e, int depth) {
  p = ws(p, e);
  if (p >= e) return nullptr;
  const char c = *p;
  if (c == '{' || c == '[') {
    if (depth >= kMaxDepth) return nullptr;
    const char closing = c == '{' ? '}' : ']';
    p = ws(p + 1, e);
    if (p < e && *p == closing) return p + 1;
    for (;;) {
      if (c == '{') {
        p = ws(p, e);
        if (p >= e || *p != '"' || !(p = skipString(p, e))) return nullptr;
        p = ws(p, e);
        if (p >= e || *p != ':') return nullptr;
        ++p;
      }
      if (!(p = skipValue(p, e, depth + 1))) return nullptr;
      p = ws(p, e);
      if (p >= e) return nullptr;
      if (*p == closing) return p + 1;
      if (*p != ',') return nullptr;
      ++p;
    }
  }
  if (c == '"') return skipString(p, e);
  if (c == 't') return skipLiteral(p, e, "true");
  if (c == 'f') return skipLiteral(p, e, "false");
  if (c == 'n') return skipLiteral(p, e, "null");
  return skipNumber(p, e);
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

uint32_t hex4(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 4) | static_cast<uint32_t>(hexValue(p[i]));
  return v;
}

}  // namespace

JsonType JsonValue::type() const {
  if (!p || n == 0) return JsonType::Invalid;
  switch (*p) {
    case '{': return JsonType::Object;
    case '[': return JsonType::Array;
    case '"': return JsonType::String;
    case 't':
    case 'f': return JsonType::Bool;
    case 'n': return JsonType::Null;
    default: return JsonType::Number;
  }
}

bool jsonParse(const char* text, size_t len, JsonValue& out) {
  const char* e = text + len;
  const char* start = ws(text, e);
  const char* end = skipValue(start, e, 0);
  if (!end || ws(end, e) != e) return false;
  out.p = start;
  out.n = static_cast<size_t>(end - start);
  return true;
}

bool jsonString(const JsonValue& v, char* out, size_t cap) {
  if (v.type() != JsonType::String || cap == 0) return false;
  const char* p = v.p + 1;
  const char* e = v.p + v.n - 1;  // closing quote
  size_t n = 0;
  auto emit = [&](uint32_t c) -> bool {
    char b[4];
    size_t k;
    if (c < 0x80) { b[0] = static_cast<char>(c); k = 1; }
    else if (c < 0x800) { b[0] = static_cast<char>(0xC0 | (c >> 6)); b[1] = static_cast<char>(0x80 | (c & 0x3F)); k = 2; }
    else if (c < 0x10000) { b[0] = static_cast<char>(0xE0 | (c >> 12)); b[1] = static_cast<char>(0x80 | ((c >> 6) & 0x3F)); b[2] = static_cast<char>(0x80 | (c & 0x3F)); k = 3; }
    else { b[0] = static_cast<char>(0xF0 | (c >> 18)); b[1] = static_cast<char>(0x80 | ((c >> 12) & 0x3F)); b[2] = static_cast<char>(0x80 | ((c >> 6) & 0x3F)); b[3] = static_cast<char>(0x80 | (c & 0x3F)); k = 4; }
    if (n + k >= cap) return false;
    memcpy(out + n, b, k);
    n += k;
    return true;
  };
  while (p < e) {
    char c = *p++;
    if (c != '\\') {
      if (n + 1 >= cap) return false;
      out[n++] = c;
      continue;
    }
    c = *p++;
    uint32_t cp;
    switch (c) {
      case 'b': cp = '\b'; break;
      case 'f': cp = '\f'; break;
      case 'n': cp = '\n'; break;
      case 'r': cp = '\r'; break;
      case 't': cp = '\t'; break;
      case 'u':
        cp = hex4(p);
        p += 4;
        // A surrogate pair encodes one code point above U+FFFF; a lone half is not text.
        if (cp >= 0xD800 && cp < 0xDC00) {
          if (e - p < 6 || p[0] != '\\' || p[1] != 'u') return false;
          const uint32_t lo = hex4(p + 2);
          if (lo < 0xDC00 || lo >= 0xE000) return false;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          p += 6;
        } else if (cp >= 0xDC00 && cp < 0xE000) {
          return false;
        }
        if (cp == 0) return false;  // would cut the C string short
        break;
      default: cp = static_cast<unsigned char>(c); break;  // \" \\ \/
    }
    if (!emit(cp)) return false;
  }
  out[n] = '\0';
  return true;
}

bool jsonMember(const JsonValue& object, const char* key, JsonValue& out) {
  if (object.type() != JsonType::Object) return false;
  const char* p = object.p + 1;
  const char* e = object.p + object.n;
  char name[33];
  for (;;) {
    p = ws(p, e);
    if (p >= e || *p != '"') return false;  // '}' or end: not found
    JsonValue k;
    k.p = p;
    p = skipString(p, e);
    k.n = static_cast<size_t>(p - k.p);
    p = ws(p, e) + 1;  // ':'
    const char* vs = ws(p, e);
    const char* ve = skipValue(vs, e, 0);
    if (!ve) return false;
    if (jsonString(k, name, sizeof name) && strcmp(name, key) == 0) {
      out.p = vs;
      out.n = static_cast<size_t>(ve - vs);
      return true;
    }
    p = ws(ve, e);
    if (p < e && *p == ',') ++p;
  }
}

bool jsonInt(const JsonValue& v, int64_t& out) {
  if (v.type() != JsonType::Number) return false;
  const char* p = v.p;
  const char* e = v.p + v.n;
  const bool neg = *p == '-';
  if (neg) ++p;
  uint64_t m = 0;
  for (; p < e; ++p) {
    if (!isDigit(*p)) return false;  // fraction or exponent
    const uint64_t d = static_cast<uint64_t>(*p - '0');
    if (m > (UINT64_C(9223372036854775807) - d) / 10) return false;
    m = m * 10 + d;
  }
  out = neg ? -static_cast<int64_t>(m) : static_cast<int64_t>(m);
  return true;
}

JsonArrayIter::JsonArrayIter(const JsonValue& array) {
  if (array.type() == JsonType::Array) {
    p_ = array.p + 1;
    end_ = array.p + array.n - 1;
  } else {
    p_ = end_ = nullptr;
  }
}

bool JsonArrayIter::next(JsonValue& out) {
  if (!p_) return false;
  const char* p = ws(p_, end_);
  if (p >= end_) return false;
  const char* ve = skipValue(p, end_, 0);
  if (!ve) return false;
  out.p = p;
  out.n = static_cast<size_t>(ve - p);
  p = ws(ve, end_);
  if (p < end_ && *p == ',') ++p;
  p_ = p;
  return true;
}

}  // namespace agua
