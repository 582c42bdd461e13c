#include "agua_backoff.h"

namespace agua {

uint32_t Backoff::failed(int64_t nowMs, uint32_t retryAfterMs, uint32_t random) {
  if (failures_ < 0xFFFF) ++failures_;
  uint64_t raw = base_;
  for (uint32_t i = 1; i < failures_ && raw < cap_; ++i) raw *= 2;
  if (raw > cap_) raw = cap_;
  const uint32_t percent = 80 + random % 41;  // 80..120
  uint64_t delay = raw * percent / 100;
  if (delay > cap_) delay = cap_;
  if (retryAfterMs > 0) {
    // The server said when: never sooner, plus up to 10 % so throttled devices spread out; a
    // refusal that keeps coming still backs off further.
    const uint64_t asked = retryAfterMs + static_cast<uint64_t>(retryAfterMs) * (random % 101) / 1000;
    if (asked > delay) delay = asked;
  }
  until_ = nowMs + static_cast<int64_t>(delay);
  return static_cast<uint32_t>(delay);
}

}  // namespace agua
