// The link-size harness: the core as a firmware image would hold it, with do-nothing ports.
// Not a runnable firmware; it exists so that the linker keeps exactly what a board reaches
// (Device::begin/loop/handleCommands and everything under them) and drops the rest.
#include "AguaFirmware.h"

namespace {

// volatile: stops the compiler from folding the stubs' answers and deleting core paths.
volatile int64_t ticks;
volatile uint32_t noise;
volatile bool flag;
char inbox[256];
volatile size_t inboxLen;

struct StubClock final : agua::Clock {
  int64_t monotonicMs() override { return ticks; }
  int64_t epochMs() override { return ticks + 1795000000000LL; }
};
struct StubStore final : agua::Store {
  size_t load(const char*, void*, size_t) override { return 0; }
  bool save(const char*, const void*, size_t) override { return flag; }
};
struct StubUplink final : agua::Uplink {
  bool ready() override { return flag; }
  agua::UplinkResult sendTelemetry(const char*, size_t len) override {
    return agua::classifyHttp(static_cast<int>(len & noise), nullptr, inbox, inboxLen);
  }
  agua::UplinkResult sendAck(const char* id, const char*, size_t len) override {
    char path[160];
    agua::ackPath(path, sizeof path, "d", id);
    return agua::classifyHttp(static_cast<int>(len & noise), path, nullptr, 0);
  }
};
struct StubPlatform final : agua::Platform {
  uint32_t random32() override { return noise; }
  void restart() override { flag = false; }
  void event(const char* json, size_t len) override { noise = noise + static_cast<uint32_t>(len) + static_cast<uint8_t>(json[0]); }
};
struct StubProbe final : agua::LevelProbe {
  bool readLevel(float& m) override {
    m = static_cast<float>(noise) / 1000.0f;
    return flag;
  }
};
struct StubGate final : agua::GateHardware {
  bool openLimit() override { return flag; }
  bool closedLimit() override { return !flag; }
  void drive(int8_t d) override { noise = noise + static_cast<uint32_t>(d); }
};
struct StubInput final : agua::DigitalInput {
  bool read() override { return noise & 1; }
};

StubClock clock;
StubStore store;
StubUplink uplink;
StubPlatform platform;
StubProbe probe;
StubGate gate;
StubInput highHigh;
agua::DeviceConfig config;

}  // namespace

// The one Device of a board, statically allocated: its size is the core's RAM.
static agua::Device device(config, clock, store, uplink, platform, &probe, &gate, &highHigh);

int main() {
  config.deviceId = "esp32_compuerta_01";
  config.type = flag ? agua::DeviceType::MotorizedGate : agua::DeviceType::LevelSensor;
  config.highHighSwitch = flag;
  config.highHighActiveHigh = noise & 2;
  device.begin(flag);
  for (;;) {
    ++ticks;
    if (inboxLen) device.handleCommands(inbox, inboxLen);
    device.loop();
  }
}

// Called only if a pure virtual function were ever called; there is no C++ runtime library here.
extern "C" void __cxa_pure_virtual() {
  for (;;) {
  }
}
