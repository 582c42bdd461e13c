#include "host_io.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace host {

namespace {
std::mutex outMutex;
}

void printLine(const std::string& json) {
  std::lock_guard<std::mutex> lock(outMutex);
  fwrite(json.data(), 1, json.size(), stdout);
  fputc('\n', stdout);
  fflush(stdout);
}

int64_t Clock::monotonicMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

int64_t Clock::epochMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

size_t FileStore::load(const char* name, void* buf, size_t cap) {
  FILE* f = fopen((dir_ + "/" + name).c_str(), "rb");
  if (!f) return 0;
  size_t n = fread(buf, 1, cap, f);
  if (fgetc(f) != EOF) n = 0;  // larger than the record we expect: not ours
  fclose(f);
  return n;
}

bool FileStore::save(const char* name, const void* data, size_t len) {
  const std::string path = dir_ + "/" + name;
  const std::string tmp = path + ".tmp";
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  const bool ok = write(fd, data, len) == static_cast<ssize_t>(len) && fsync(fd) == 0;
  close(fd);
  return ok && rename(tmp.c_str(), path.c_str()) == 0;
}

uint32_t hostRandom() {
  uint32_t r = 0;
  if (getrandom(&r, sizeof r, 0) != sizeof r) r = static_cast<uint32_t>(Clock().monotonicMs() * 2654435761u);
  return r;
}

uint32_t Platform::random32() { return hostRandom(); }

void Platform::restart() {
  fflush(stdout);
  // Sockets must not leak into the new image: the broker has to see this connection drop.
  syscall(SYS_close_range, 3u, ~0u, 0u);
  execv("/proc/self/exe", argv_);
  _exit(1);
}

void Platform::event(const char* json, size_t len) {
  printLine(std::string(json, len));
  if (crashAt_.empty()) return;
  const std::string tag = "{\"event\":\"" + crashAt_ + "\"";
  if (strncmp(json, tag.c_str(), tag.size()) == 0) raise(SIGKILL);
}

bool SimProbe::readLevel(float& metres) {
  const double t = static_cast<double>(Clock().epochMs()) / 1000.0;
  metres = static_cast<float>(2.5 + 1.2 * std::sin(t / 90.0) + 0.05 * std::sin(t * 1.7));
  return true;
}

SimGate::SimGate(std::string file, int64_t travelMs) : file_(std::move(file)), travelMs_(travelMs) {
  if (FILE* f = fopen(file_.c_str(), "r")) {
    int dir = 0;
    long long at = 0;
    if (fscanf(f, "%lf %d %lld", &from_, &dir, &at) == 3) {
      direction_ = static_cast<int8_t>(dir);
      startedAt_ = at;
    }
    fclose(f);
  }
}

double SimGate::position() const {
  if (direction_ == 0) return from_;
  const double moved = static_cast<double>(Clock().epochMs() - startedAt_) / static_cast<double>(travelMs_);
  return std::fmin(1.0, std::fmax(0.0, from_ + direction_ * moved));
}

void SimGate::drive(int8_t direction) {
  from_ = position();
  direction_ = direction;
  startedAt_ = Clock().epochMs();
  save();
  char line[96];
  snprintf(line, sizeof line, "{\"event\":\"motor\",\"direction\":%d,\"position\":%.3f}", direction, from_);
  printLine(line);
}

void SimGate::save() const {
  const std::string tmp = file_ + ".tmp";
  if (FILE* f = fopen(tmp.c_str(), "w")) {
    fprintf(f, "%.6f %d %lld\n", from_, direction_, static_cast<long long>(startedAt_));
    fclose(f);
    rename(tmp.c_str(), file_.c_str());
  }
}

bool FileInput::read() {
  FILE* f = fopen(path_.c_str(), "r");
  if (!f) return true;
  const int c = fgetc(f);
  fclose(f);
  return c != '0';
}

void Mailbox::push(std::string s) {
  std::lock_guard<std::mutex> lock(m_);
  q_.push_back(std::move(s));
}

bool Mailbox::pop(std::string& out) {
  std::lock_guard<std::mutex> lock(m_);
  if (q_.empty()) return false;
  out = std::move(q_.front());
  q_.pop_front();
  return true;
}

}  // namespace host
