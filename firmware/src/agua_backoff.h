#pragma once

#include <stdint.h>

namespace agua {

// When to try again after a failure: exponential from `base` to `cap`, with ±20 % jitter so that a
// fleet that lost its server together does not come back in lockstep, and never sooner than the
// server's Retry-After when it gave one.
class Backoff {
 public:
  Backoff(uint32_t baseMs, uint32_t capMs) : base_(baseMs), cap_(capMs) {}

  // Records a failure at nowMs; returns the delay chosen. `random` is any uniform 32-bit value.
  uint32_t failed(int64_t nowMs, uint32_t retryAfterMs, uint32_t random);
  void succeeded() {
    failures_ = 0;
    until_ = 0;
  }
  bool ready(int64_t nowMs) const { return nowMs >= until_; }
  uint32_t failures() const { return failures_; }

 private:
  uint32_t base_;
  uint32_t cap_;
  uint32_t failures_ = 0;
  int64_t until_ = 0;
};

}  // namespace agua
