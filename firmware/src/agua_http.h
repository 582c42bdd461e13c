// The HTTP side of docs/protocol.md that does not depend on an HTTP library: status → what to do,
// Retry-After, request paths. Shared by the Arduino example and the host's libcurl transport.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "agua_ports.h"

namespace agua {

// A Retry-After of delta-seconds as ms (capped to an hour); 0 when absent or not a number.
// HTTP-date values are not parsed: the server sends seconds.
uint32_t parseRetryAfter(const char* header);

// status <= 0 means the request never got an answer (DNS, connect, timeout).
UplinkResult classifyHttp(int status, const char* retryAfter, const char* body, size_t len);

// Request targets, percent-encoded; false if they do not fit.
bool telemetryPath(char* out, size_t cap);
bool pollPath(char* out, size_t cap, const char* deviceId, unsigned waitS);
bool ackPath(char* out, size_t cap, const char* deviceId, const char* commandId);

}  // namespace agua
