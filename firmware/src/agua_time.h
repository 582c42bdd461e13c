#pragma once

#include <stdint.h>

namespace agua {

// Days since 1970-01-01 of a proleptic Gregorian date (any year; no libc, no time zone tables).
int64_t daysFromCivil(int64_t y, unsigned m, unsigned d);

// Epoch ms of an ISO 8601 date-time with a `Z` or `±hh:mm` offset, as the server writes
// `expiresAt` ("2026-11-22T10:00:10.000Z"). false when malformed or without an offset: a time
// without a zone cannot be compared with the device clock.
bool parseIsoTime(const char* s, int64_t& outMs);

}  // namespace agua
