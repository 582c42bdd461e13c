// Compile-time capacities of the device core. The core never allocates: every buffer below is a
// member of the Device object, so its RAM cost is known at link time (see scripts/size-check.sh).
#pragma once

#include <stddef.h>
#include <stdint.h>

// Readings kept while the link is down (24 bytes each). 64 readings at the default 5 s interval
// cover about five minutes of outage; a longer outage drops the oldest first.
#ifndef AGUA_QUEUE_CAPACITY
#define AGUA_QUEUE_CAPACITY 64
#endif

// One telemetry request body. A level reading is ~130 bytes, so ~20 readings per batch; a long
// outage is uploaded as several batches in a row.
#ifndef AGUA_BATCH_BYTES
#define AGUA_BATCH_BYTES 3072
#endif

// Executed command ids remembered across reboots (9 bytes each). The server re-delivers a command
// only until it times out (seconds), so a handful would do; 32 leaves room for bursts.
#ifndef AGUA_EXECUTED_IDS
#define AGUA_EXECUTED_IDS 32
#endif

// A gate's local high-high level switch ("interruptor de nivel muy alto"), the hard interlock in
// agua_gate.h: while it is active the gate refuses `abrir` and stops if it is opening. These are
// the defaults of DeviceConfig::highHighSwitch / highHighActiveHigh; a board sets them there (or
// with -D). 0: no switch wired, the gate behaves as without the interlock.
#ifndef AGUA_HIGH_HIGH_SWITCH
#define AGUA_HIGH_HIGH_SWITCH 0
#endif

// 1: the input reads HIGH at high-high level. That is the fail-safe wiring: a normally-closed
// contact to GND with a pull-up opens at high-high, and a cut wire reads HIGH too, so it blocks
// opening instead of hiding the switch. 0: active LOW (a normally-open contact to GND; a cut wire
// then goes unnoticed).
#ifndef AGUA_HIGH_HIGH_ACTIVE_HIGH
#define AGUA_HIGH_HIGH_ACTIVE_HIGH 1
#endif

namespace agua {

// docs/protocol.md limits.
constexpr size_t kMaxBatchMessages = 500;
constexpr size_t kMaxBodyBytes = 256 * 1024;
constexpr size_t kMaxDeviceId = 64;
constexpr size_t kMaxCommandId = 100;  // the server refuses longer ids in the ack URL
constexpr size_t kMaxCommandName = 16;
// A clock below 2000-01-01 has not been set (the server refuses such a ts anyway).
constexpr int64_t kMinValidEpochMs = 946684800000LL;

static_assert(AGUA_BATCH_BYTES >= 512 && AGUA_BATCH_BYTES <= kMaxBodyBytes, "batch buffer out of range");
static_assert(AGUA_QUEUE_CAPACITY >= 1 && AGUA_QUEUE_CAPACITY <= 60000, "queue capacity out of range");
static_assert(AGUA_EXECUTED_IDS >= 1 && AGUA_EXECUTED_IDS <= 255, "executed-id ring out of range");
static_assert(AGUA_HIGH_HIGH_SWITCH == 0 || AGUA_HIGH_HIGH_SWITCH == 1, "AGUA_HIGH_HIGH_SWITCH is 0 or 1");
static_assert(AGUA_HIGH_HIGH_ACTIVE_HIGH == 0 || AGUA_HIGH_HIGH_ACTIVE_HIGH == 1, "AGUA_HIGH_HIGH_ACTIVE_HIGH is 0 or 1");

}  // namespace agua
