// The virtual board: the device core on a Linux host, with real HTTP (libcurl) and MQTT
// (libmosquitto), flash as files in --state-dir, and one JSON line per event on stdout.
//
//   virtual-board --url http://127.0.0.1:8080 [--mqtt mqtt://127.0.0.1:1883] --device ID --key KEY
//                 --type level_sensor|motorized_gate [--readings N] [--interval-ms MS]
//                 [--state-dir DIR] [--travel-ms MS] [--travel-timeout-ms MS] [--crash-at EVENT]
//                 [--high-high FILE] [--high-high-active high|low]
//
// --high-high FILE wires a local high-high level switch to the gate and turns its interlock on:
// the input's level is the file's first character (1 HIGH, 0 LOW; missing: HIGH), read on every
// loop. By default HIGH means high-high (agua_config.h); --high-high-active low inverts it.
#include <curl/curl.h>
#include <mosquitto.h>
#include <signal.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "AguaFirmware.h"
#include "host_io.h"
#include "transports.h"

namespace {

std::atomic<bool> stopRequested{false};

void onSignal(int) { stopRequested = true; }

struct Options {
  std::string url, mqtt, device, key, type, stateDir, crashAt, highHigh;
  bool highHighActiveHigh = AGUA_HIGH_HIGH_ACTIVE_HIGH;
  long readings = 0;
  long intervalMs = 5000;
  long travelMs = 5000;
  long travelTimeoutMs = 120000;
};

[[noreturn]] void usage(const char* why) {
  fprintf(stderr,
          "virtual-board: %s\n"
          "usage: virtual-board --url URL [--mqtt mqtt://HOST:PORT] --device ID --key KEY\n"
          "                     --type level_sensor|motorized_gate [--readings N] [--interval-ms MS]\n"
          "                     [--state-dir DIR] [--travel-ms MS] [--travel-timeout-ms MS] [--crash-at EVENT]\n"
          "                     [--high-high FILE] [--high-high-active high|low]\n",
          why);
  exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) usage(("missing value for " + a).c_str());
    const char* v = argv[++i];
    if (a == "--url") o.url = v;
    else if (a == "--mqtt") o.mqtt = v;
    else if (a == "--device") o.device = v;
    else if (a == "--key") o.key = v;
    else if (a == "--type") o.type = v;
    else if (a == "--state-dir") o.stateDir = v;
    else if (a == "--crash-at") o.crashAt = v;
    else if (a == "--readings") o.readings = atol(v);
    else if (a == "--interval-ms") o.intervalMs = atol(v);
    else if (a == "--travel-ms") o.travelMs = atol(v);
    else if (a == "--travel-timeout-ms") o.travelTimeoutMs = atol(v);
    else if (a == "--high-high") o.highHigh = v;
    else if (a == "--high-high-active") {
      if (strcmp(v, "high") != 0 && strcmp(v, "low") != 0) usage("--high-high-active must be high or low");
      o.highHighActiveHigh = strcmp(v, "high") == 0;
    }
    else usage(("unknown option " + a).c_str());
  }
  if (o.url.empty() || o.device.empty() || o.key.empty()) usage("--url, --device and --key are required");
  if (o.type != "level_sensor" && o.type != "motorized_gate") usage("--type must be level_sensor or motorized_gate");
  if (o.device.size() > agua::kMaxDeviceId) usage("device id too long");
  if (o.intervalMs <= 0 || o.travelMs <= 0 || o.readings < 0) usage("bad number");
  if (o.stateDir.empty()) o.stateDir = "agua-state-" + o.device;
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  mkdir(o.stateDir.c_str(), 0755);
  signal(SIGPIPE, SIG_IGN);
  signal(SIGTERM, onSignal);
  signal(SIGINT, onSignal);
  curl_global_init(CURL_GLOBAL_DEFAULT);
  mosquitto_lib_init();

  host::Clock clock;
  host::FileStore store(o.stateDir);
  host::Platform platform(argv, o.crashAt);
  host::SimProbe probe;
  host::SimGate gate(o.stateDir + "/gate-sim", o.travelMs);
  host::FileInput highHigh(o.highHigh);
  host::Mailbox mailbox;
  host::HttpUplink http(o.url, o.key, o.device);
  std::unique_ptr<host::MqttUplink> mqtt;
  std::unique_ptr<agua::FallbackUplink> fallback;
  agua::Uplink* link = &http;
  if (!o.mqtt.empty()) {
    mqtt = std::make_unique<host::MqttUplink>(o.mqtt, o.device, o.key, mailbox);
    if (!mqtt->start()) usage("cannot start the MQTT client");
    fallback = std::make_unique<agua::FallbackUplink>(*mqtt, http);
    link = fallback.get();
    // A board connects before it reports; HTTP only takes over if the broker stays away.
    for (int i = 0; i < 100 && !mqtt->ready(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }

  agua::DeviceConfig config;
  config.deviceId = o.device.c_str();
  config.type = o.type == "level_sensor" ? agua::DeviceType::LevelSensor : agua::DeviceType::MotorizedGate;
  config.readingIntervalMs = static_cast<uint32_t>(o.intervalMs);
  config.travelTimeoutMs = static_cast<uint32_t>(o.travelTimeoutMs);
  config.maxReadings = static_cast<uint32_t>(o.readings);
  config.highHighSwitch = !o.highHigh.empty();
  config.highHighActiveHigh = o.highHighActiveHigh;
  static agua::Device device(config, clock, store, *link, platform, &probe, &gate,
                             config.highHighSwitch ? &highHigh : nullptr);
  device.begin();

  // Without MQTT, commands come from the long poll (and from telemetry answers).
  std::thread poller;
  if (!mqtt) poller = std::thread(host::longPollLoop, o.url, o.key, o.device, std::ref(mailbox), std::cref(stopRequested));

  std::string payload;
  while (!stopRequested) {
    while (mailbox.pop(payload)) device.handleCommands(payload.data(), payload.size());
    device.loop();
    if (o.readings > 0 && device.readingsTaken() >= static_cast<uint32_t>(o.readings) && device.idle()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }

  stopRequested = true;
  if (poller.joinable()) poller.join();
  if (mqtt) mqtt->stop();
  host::printLine("{\"event\":\"done\",\"queued\":" + std::to_string(device.queued()) + "}");
  return 0;
}
