// The core's ports for an ESP32 under Arduino (arduino-esp32 2.x/3.x): WiFi, SNTP, NVS, RTC
// memory, HTTPClient and PubSubClient. Header-only and included by the sketches alone, so the
// host build and the size check never see it. Transport choices, and why:
//   - Telemetry goes over HTTP: a 202 means "durably stored", which is what lets the core forget a
//     batch. PubSubClient can only publish at QoS 0, where a successful publish proves nothing.
//   - Commands arrive over MQTT (pushed within a second) and, while the broker is unreachable, in
//     the `commands` of every 202: HTTP is the fallback. No long poll: it would block loop().
//   - Acks go over MQTT when connected (QoS 0 is enough: a lost ack makes the server re-send the
//     command, and the core acknowledges the repeat without running it), else over HTTP.
#pragma once

#if !defined(ARDUINO_ARCH_ESP32)
#error "AguaEsp32.h is for ESP32 boards; other boards implement the ports in agua_ports.h themselves"
#endif

#include <Arduino.h>
#include <HTTPClient.h>
#include <Preferences.h>
#include <PubSubClient.h>
#include <WiFi.h>
#include <esp_random.h>
#include <esp_timer.h>
#include <sys/time.h>
#include <time.h>

#include "AguaFirmware.h"

namespace agua {
namespace esp32 {

struct Settings {
  const char* wifiSsid;
  const char* wifiPassword;
  const char* serverUrl;  // "http://192.168.1.10:8080" (no trailing slash)
  const char* mqttHost;   // nullptr: HTTP only
  uint16_t mqttPort;
  const char* deviceId;
  const char* deviceKey;
};

class Clock final : public agua::Clock {
 public:
  int64_t monotonicMs() override { return esp_timer_get_time() / 1000; }
  int64_t epochMs() override {
    timeval tv;
    gettimeofday(&tv, nullptr);
    return static_cast<int64_t>(tv.tv_sec) * 1000 + tv.tv_usec / 1000;  // ~0 until SNTP answers
  }
};

// "telemetry" (boot, seq, queue; rewritten on every reading) lives in RTC slow memory: it
// survives resets, crashes and deep sleep, costs no flash wear, and is lost only with the power.
// "executed" (command ids; written once per command) goes to NVS flash and survives everything.
// After a power-on the RTC bytes are garbage; the core's record checksum turns that into "absent".
RTC_NOINIT_ATTR static uint8_t rtcTelemetry[2048];
RTC_NOINIT_ATTR static uint32_t rtcTelemetryLen;
static_assert(sizeof(TelemetryQueue::Record) <= sizeof rtcTelemetry, "queue record larger than its RTC area");

class Store final : public agua::Store {
 public:
  void begin() { prefs_.begin("agua", false); }
  size_t load(const char* name, void* buf, size_t cap) override {
    if (strcmp(name, "telemetry") == 0) {
      if (rtcTelemetryLen > cap || rtcTelemetryLen > sizeof rtcTelemetry) return 0;
      memcpy(buf, rtcTelemetry, rtcTelemetryLen);
      return rtcTelemetryLen;
    }
    const size_t n = prefs_.getBytesLength(name);
    return n > 0 && n <= cap ? prefs_.getBytes(name, buf, cap) : 0;
  }
  bool save(const char* name, const void* data, size_t len) override {
    if (strcmp(name, "telemetry") == 0) {
      if (len > sizeof rtcTelemetry) return false;
      memcpy(rtcTelemetry, data, len);  // a reset mid-copy fails the checksum: the queue is dropped
      rtcTelemetryLen = len;
      return true;
    }
    return prefs_.putBytes(name, data, len) == len;  // an NVS entry is replaced atomically
  }

 private:
  Preferences prefs_;
};

class Platform final : public agua::Platform {
 public:
  uint32_t random32() override { return esp_random(); }  // true random once the radio is on
  void restart() override {
    Serial.flush();
    ESP.restart();
  }
  void event(const char* json, size_t len) override {
    Serial.write(reinterpret_cast<const uint8_t*>(json), len);
    Serial.write('\n');
  }
};

// A digital input on a GPIO: the local high-high level switch of a gate. read() is the pin's
// level at that moment, unfiltered: the core stops an opening gate on a single active reading,
// so filtering here could only delay the interlock. Pins 34-39 have no internal pull-up: with
// those, fit an external one (and on a long cable to the switch, do so anyway: 4.7 kΩ to 3.3 V).
class Input final : public agua::DigitalInput {
 public:
  explicit Input(int pin, bool pullUp = true) : pin_(pin), pullUp_(pullUp) {}
  void begin() { pinMode(pin_, pullUp_ ? INPUT_PULLUP : INPUT); }
  bool read() override { return digitalRead(pin_) == HIGH; }

 private:
  int pin_;
  bool pullUp_;
};

// WiFi, the MQTT session and both uplink paths.
class Link final : public agua::Uplink {
 public:
  explicit Link(const Settings& s) : s_(s), mqtt_(mqttSocket_) {}

  void begin() {
    WiFi.mode(WIFI_STA);
    WiFi.begin(s_.wifiSsid, s_.wifiPassword);
    // UTC; the core only needs epoch time. Until the first answer, readings go without `ts`.
    configTime(0, 0, "pool.ntp.org", "time.google.com");
    snprintf(topicStatus_, sizeof topicStatus_, "agua/v1/%s/status", s_.deviceId);
    snprintf(topicCommands_, sizeof topicCommands_, "agua/v1/%s/commands", s_.deviceId);
    snprintf(topicErrors_, sizeof topicErrors_, "agua/v1/%s/errors", s_.deviceId);
    snprintf(topicAck_, sizeof topicAck_, "agua/v1/%s/commands/ack", s_.deviceId);
    if (s_.mqttHost) {
      mqtt_.setServer(s_.mqttHost, s_.mqttPort);
      mqtt_.setBufferSize(1024);  // a command is ~150 bytes; refusals on the errors topic more
      mqtt_.setCallback([this](char* topic, uint8_t* payload, unsigned int len) { onMessage(topic, payload, len); });
    }
  }

  // Call from loop(): keeps MQTT up and hands received commands to the device.
  void service(Device& device) {
    if (WiFi.status() != WL_CONNECTED) return;  // the WiFi driver reconnects by itself
    if (s_.mqttHost && !mqtt_.connected() && millis() - lastMqttAttempt_ > 5000) {
      lastMqttAttempt_ = millis();
      connectMqtt();
    }
    if (s_.mqttHost) mqtt_.loop();
    if (inboxLen_ > 0) {
      // Handled here, not in the PubSubClient callback: publishing an ack from inside it would
      // reuse the buffer the command is still in.
      device.handleCommands(inbox_, inboxLen_);
      inboxLen_ = 0;
    }
  }

  bool ready() override { return WiFi.status() == WL_CONNECTED; }

  UplinkResult sendTelemetry(const char* body, size_t len) override {
    char path[32];
    telemetryPath(path, sizeof path);
    return post(path, body, len);
  }

  UplinkResult sendAck(const char* commandId, const char* body, size_t len) override {
    if (mqtt_.connected() && mqtt_.publish(topicAck_, reinterpret_cast<const uint8_t*>(body), len, false)) {
      UplinkResult ok;
      ok.status = SendStatus::Ok;
      return ok;
    }
    char path[200];
    if (!ackPath(path, sizeof path, s_.deviceId, commandId)) return classifyHttp(400, nullptr, nullptr, 0);
    return post(path, body, len);
  }

 private:
  void connectMqtt() {
    // client id = username = device id, password = key; last will `offline`, retained, QoS 1.
    if (!mqtt_.connect(s_.deviceId, s_.deviceId, s_.deviceKey, topicStatus_, 1, true, "offline")) return;
    mqtt_.publish(topicStatus_, "online", true);
    mqtt_.subscribe(topicCommands_, 1);
    mqtt_.subscribe(topicErrors_, 1);
  }

  void onMessage(char* topic, uint8_t* payload, unsigned int len) {
    if (strcmp(topic, topicCommands_) == 0) {
      if (len < sizeof inbox_) {
        memcpy(inbox_, payload, len);
        inboxLen_ = len;
      }
    } else {
      // A refusal of our telemetry; over HTTP the same reaches the core as a 4xx.
      Serial.print("{\"event\":\"server_error\",\"topic\":\"errors\",\"bytes\":");
      Serial.print(len);
      Serial.println("}");
    }
  }

  UplinkResult post(const char* path, const char* body, size_t len) {
    char url[256];
    snprintf(url, sizeof url, "%s%s", s_.serverUrl, path);
    HTTPClient http;
    http.setConnectTimeout(5000);
    http.setTimeout(15000);
    if (!http.begin(httpSocket_, url)) return classifyHttp(0, nullptr, nullptr, 0);
    http.addHeader("X-API-Key", s_.deviceKey);
    http.addHeader("Content-Type", "application/json");
    static const char* wanted[] = {"Retry-After"};
    http.collectHeaders(wanted, 1);
    const int status = http.POST(reinterpret_cast<uint8_t*>(const_cast<char*>(body)), len);
    // Kept in members: the core reads the body after this returns.
    response_ = status > 0 ? http.getString() : String();
    retryAfter_ = http.header("Retry-After");
    http.end();
    return classifyHttp(status, retryAfter_.length() ? retryAfter_.c_str() : nullptr, response_.c_str(), response_.length());
  }

  const Settings& s_;
  WiFiClient httpSocket_;
  WiFiClient mqttSocket_;
  PubSubClient mqtt_;
  String response_;
  String retryAfter_;
  uint32_t lastMqttAttempt_ = 0;
  char inbox_[1024];
  volatile size_t inboxLen_ = 0;
  char topicStatus_[96], topicCommands_[96], topicErrors_[96], topicAck_[104];
};

}  // namespace esp32
}  // namespace agua
