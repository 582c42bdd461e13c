#include "agua_time.h"

namespace agua {

int64_t daysFromCivil(int64_t y, unsigned m, unsigned d) {
  // Howard Hinnant's algorithm: counts in 400-year eras so leap rules are exact.
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

namespace {

bool digits(const char*& p, int n, int& out) {
  out = 0;
  for (int i = 0; i < n; ++i, ++p) {
    if (*p < '0' || *p > '9') return false;
    out = out * 10 + (*p - '0');
  }
  return true;
}

bool expect(const char*& p, char c) {
  if (*p != c) return false;
  ++p;
  return true;
}

unsigned daysInMonth(int y, int m) {
  static const unsigned char days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : days[m - 1];
}

}  // namespace

bool parseIsoTime(const char* s, int64_t& outMs) {
  if (!s) return false;
  const char* p = s;
  int y, mo, d, h, mi, sec, ms = 0;
  if (!digits(p, 4, y) || !expect(p, '-') || !digits(p, 2, mo) || !expect(p, '-') || !digits(p, 2, d)) return false;
  if (!expect(p, 'T') || !digits(p, 2, h) || !expect(p, ':') || !digits(p, 2, mi) || !expect(p, ':') || !digits(p, 2, sec)) return false;
  if (mo < 1 || mo > 12 || d < 1 || static_cast<unsigned>(d) > daysInMonth(y, mo) || h > 23 || mi > 59 || sec > 59) return false;
  if (*p == '.') {
    ++p;
    if (*p < '0' || *p > '9') return false;
    // Milliseconds from the first three digits (".5" is 500 ms); finer digits are ignored.
    int i = 0;
    for (; *p >= '0' && *p <= '9'; ++i, ++p) {
      if (i < 3) ms = ms * 10 + (*p - '0');
      else if (i > 9) return false;
    }
    for (; i < 3; ++i) ms *= 10;
  }
  int offsetMin = 0;
  if (*p == 'Z') {
    ++p;
  } else if (*p == '+' || *p == '-') {
    const int sign = *p++ == '-' ? -1 : 1;
    int oh, om;
    if (!digits(p, 2, oh) || !expect(p, ':') || !digits(p, 2, om) || oh > 23 || om > 59) return false;
    offsetMin = sign * (oh * 60 + om);
  } else {
    return false;
  }
  if (*p != '\0') return false;
  const int64_t days = daysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  const int64_t secs = days * 86400 + h * 3600 + mi * 60 + sec - offsetMin * 60;
  outMs = secs * 1000 + ms;
  return true;
}

}  // namespace agua
