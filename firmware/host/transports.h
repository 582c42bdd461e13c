// Real transports for the virtual board: HTTP with libcurl, MQTT 3.1.1 with libmosquitto.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>

#include "AguaFirmware.h"
#include "host_io.h"

struct mosquitto;
struct mosquitto_message;

namespace host {

struct HttpAnswer {
  int status = 0;  // 0: no answer (connect error, timeout)
  std::string body;
  std::string retryAfter;
};

// One libcurl easy handle (keeps its connection alive between requests); not thread-safe, so the
// uplink and the long poll each have their own.
class HttpClient {
 public:
  HttpClient(std::string baseUrl, std::string key);
  ~HttpClient();
  HttpAnswer request(const char* method, const std::string& path, const char* body, size_t len, long timeoutS,
                     const std::atomic<bool>* abort = nullptr);

 private:
  std::string base_;
  std::string key_;
  void* curl_;
};

class HttpUplink final : public agua::Uplink {
 public:
  HttpUplink(const std::string& baseUrl, const std::string& key, std::string deviceId)
      : http_(baseUrl, key), deviceId_(std::move(deviceId)) {}
  // HTTP has no standing connection: whether the server is there shows per request.
  bool ready() override { return true; }
  agua::UplinkResult sendTelemetry(const char* body, size_t len) override;
  agua::UplinkResult sendAck(const char* commandId, const char* body, size_t len) override;

 private:
  agua::UplinkResult send(const char* kind, const std::string& path, const char* body, size_t len);
  HttpClient http_;
  std::string deviceId_;
  HttpAnswer last_;  // the body the core reads lives here until the next request
};

// GET /api/v1/devices/{id}/commands?wait=25 in a loop, on its own thread, into the mailbox.
void longPollLoop(const std::string& baseUrl, const std::string& key, const std::string& deviceId, Mailbox& box,
                  const std::atomic<bool>& stop);

class MqttUplink final : public agua::Uplink {
 public:
  MqttUplink(const std::string& url, const std::string& deviceId, const std::string& key, Mailbox& box);
  ~MqttUplink();
  bool start();
  // Clean power-off: `offline` (retained) on the status topic, then DISCONNECT.
  void stop();
  bool ready() override { return connected_; }
  agua::UplinkResult sendTelemetry(const char* body, size_t len) override;
  agua::UplinkResult sendAck(const char* commandId, const char* body, size_t len) override;

 private:
  static void onConnect(mosquitto*, void* self, int rc);
  static void onDisconnect(mosquitto*, void* self, int rc);
  static void onPublish(mosquitto*, void* self, int mid);
  static void onMessage(mosquitto*, void* self, const mosquitto_message* msg);
  // Publishes at QoS 1 and waits for the PUBACK: for telemetry, PUBACK means stored.
  bool publishAcked(const std::string& topic, const char* body, size_t len, bool retain, int timeoutMs);
  agua::UplinkResult send(const char* kind, const std::string& topic, const char* body, size_t len);

  std::string host_;
  int port_ = 1883;
  std::string deviceId_;
  std::string key_;
  Mailbox& box_;
  mosquitto* mosq_ = nullptr;
  std::atomic<bool> connected_{false};
  std::mutex m_;
  std::condition_variable cv_;
  std::set<int> acked_;
  unsigned connection_ = 0;  // bumped on every disconnect, to fail waits that cannot be acked
};

}  // namespace host
