#include "agua_http.h"

#include <string.h>

namespace agua {

uint32_t parseRetryAfter(const char* header) {
  if (!header) return 0;
  while (*header == ' ') ++header;
  uint32_t s = 0;
  const char* p = header;
  for (; *p >= '0' && *p <= '9'; ++p) {
    if (s < 3600) s = s * 10 + static_cast<uint32_t>(*p - '0');
  }
  if (p == header) return 0;
  if (s > 3600) s = 3600;
  return s * 1000;
}

UplinkResult classifyHttp(int status, const char* retryAfter, const char* body, size_t len) {
  UplinkResult r;
  r.body = body;
  r.bodyLen = len;
  r.retryAfterMs = parseRetryAfter(retryAfter);
  if (status >= 200 && status < 300) r.status = SendStatus::Ok;
  else if (status == 429) {
    r.status = SendStatus::Throttled;
    if (r.retryAfterMs == 0) r.retryAfterMs = 1000;  // the server always sends one; be safe
  } else if (status == 503 && r.retryAfterMs > 0) r.status = SendStatus::Throttled;
  else if (status <= 0 || status == 408 || status >= 500) r.status = SendStatus::Retry;
  else if (status == 401 || status == 403) r.status = SendStatus::Unauthorized;
  else r.status = SendStatus::Rejected;
  return r;
}

namespace {

// Appends s percent-encoded (RFC 3986 unreserved characters kept).
bool appendEncoded(char* out, size_t cap, size_t& n, const char* s) {
  static const char hex[] = "0123456789ABCDEF";
  for (; *s; ++s) {
    const unsigned char c = static_cast<unsigned char>(*s);
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                       c == '_' || c == '.' || c == '~';
    if (n + (plain ? 1 : 3) >= cap) return false;
    if (plain) out[n++] = static_cast<char>(c);
    else {
      out[n++] = '%';
      out[n++] = hex[c >> 4];
      out[n++] = hex[c & 15];
    }
  }
  out[n] = '\0';
  return true;
}

bool append(char* out, size_t cap, size_t& n, const char* s) {
  const size_t k = strlen(s);
  if (n + k >= cap) return false;
  memcpy(out + n, s, k + 1);
  n += k;
  return true;
}

}  // namespace

bool telemetryPath(char* out, size_t cap) {
  size_t n = 0;
  return append(out, cap, n, "/api/v1/telemetry");
}

bool pollPath(char* out, size_t cap, const char* deviceId, unsigned waitS) {
  char wait[8];
  int k = 0;
  char rev[8];
  do {
    rev[k++] = static_cast<char>('0' + waitS % 10);
    waitS /= 10;
  } while (waitS && k < 7);
  for (int i = 0; i < k; ++i) wait[i] = rev[k - 1 - i];
  wait[k] = '\0';
  size_t n = 0;
  return append(out, cap, n, "/api/v1/devices/") && appendEncoded(out, cap, n, deviceId) &&
         append(out, cap, n, "/commands?wait=") && append(out, cap, n, wait);
}

bool ackPath(char* out, size_t cap, const char* deviceId, const char* commandId) {
  size_t n = 0;
  return append(out, cap, n, "/api/v1/devices/") && appendEncoded(out, cap, n, deviceId) &&
         append(out, cap, n, "/commands/") && appendEncoded(out, cap, n, commandId) && append(out, cap, n, "/ack");
}

}  // namespace agua
