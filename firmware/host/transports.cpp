#include "transports.h"

#include <curl/curl.h>
#include <mosquitto.h>
#include <strings.h>

#include <chrono>
#include <thread>

namespace host {

namespace {

std::string jsonQuote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out + "\"";
}

void transportEvent(const char* via, const char* request, const std::string& status) {
  printLine(std::string("{\"event\":\"transport\",\"via\":\"") + via + "\",\"request\":\"" + request +
            "\",\"status\":" + status + "}");
}

size_t collectBody(char* data, size_t size, size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

size_t collectHeader(char* data, size_t size, size_t n, void* out) {
  const size_t len = size * n;
  static const char name[] = "retry-after:";
  if (len > sizeof name && strncasecmp(data, name, sizeof name - 1) == 0) {
    std::string v(data + sizeof name - 1, len - (sizeof name - 1));
    while (!v.empty() && (v.back() == '\r' || v.back() == '\n' || v.back() == ' ')) v.pop_back();
    *static_cast<std::string*>(out) = v;
  }
  return len;
}

int abortIfAsked(void* flag, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  const auto* stop = static_cast<const std::atomic<bool>*>(flag);
  return stop && stop->load() ? 1 : 0;
}

}  // namespace

// ---- HTTP --------------------------------------------------------------------------------------

HttpClient::HttpClient(std::string baseUrl, std::string key) : base_(std::move(baseUrl)), key_(std::move(key)) {
  while (!base_.empty() && base_.back() == '/') base_.pop_back();
  curl_ = curl_easy_init();
}

HttpClient::~HttpClient() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

HttpAnswer HttpClient::request(const char* method, const std::string& path, const char* body, size_t len,
                               long timeoutS, const std::atomic<bool>* abort) {
  CURL* c = static_cast<CURL*>(curl_);
  curl_easy_reset(c);
  HttpAnswer a;
  const std::string url = base_ + path;
  const std::string auth = "X-API-Key: " + key_;
  curl_slist* headers = curl_slist_append(nullptr, auth.c_str());
  if (body) headers = curl_slist_append(headers, "Content-Type: application/json");
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
  if (body) {
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, static_cast<long>(len));
  }
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 5L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT, timeoutS);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collectBody);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &a.body);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, collectHeader);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &a.retryAfter);
  if (abort) {
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, abortIfAsked);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, abort);
  }
  if (curl_easy_perform(c) == CURLE_OK) {
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    a.status = static_cast<int>(status);
  }
  curl_slist_free_all(headers);
  return a;
}

agua::UplinkResult HttpUplink::send(const char* kind, const std::string& path, const char* body, size_t len) {
  last_ = http_.request("POST", path, body, len, 15);
  transportEvent("http", kind, std::to_string(last_.status));
  return agua::classifyHttp(last_.status, last_.retryAfter.empty() ? nullptr : last_.retryAfter.c_str(),
                            last_.body.data(), last_.body.size());
}

agua::UplinkResult HttpUplink::sendTelemetry(const char* body, size_t len) {
  char path[32];
  agua::telemetryPath(path, sizeof path);
  return send("telemetry", path, body, len);
}

agua::UplinkResult HttpUplink::sendAck(const char* commandId, const char* body, size_t len) {
  char path[400];
  if (!agua::ackPath(path, sizeof path, deviceId_.c_str(), commandId)) return agua::classifyHttp(400, nullptr, nullptr, 0);
  return send("ack", path, body, len);
}

void longPollLoop(const std::string& baseUrl, const std::string& key, const std::string& deviceId, Mailbox& box,
                  const std::atomic<bool>& stop) {
  HttpClient http(baseUrl, key);
  char path[200];
  agua::pollPath(path, sizeof path, deviceId.c_str(), 25);
  agua::Backoff backoff(1000, 30000);
  Clock clock;
  while (!stop) {
    printLine("{\"event\":\"poll\"}");
    const HttpAnswer a = http.request("GET", path, nullptr, 0, 25 + 15, &stop);
    if (stop) return;
    if (a.status == 200) {
      backoff.succeeded();
      if (a.body != "[]") box.push(a.body);
      continue;
    }
    const agua::UplinkResult r = agua::classifyHttp(a.status, a.retryAfter.c_str(), nullptr, 0);
    const uint32_t delay = backoff.failed(clock.monotonicMs(), r.retryAfterMs, hostRandom());
    printLine("{\"event\":\"poll_failed\",\"status\":" + std::to_string(a.status) + ",\"retryInMs\":" +
              std::to_string(delay) + "}");
    for (uint32_t waited = 0; waited < delay && !stop; waited += 50) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// ---- MQTT --------------------------------------------------------------------------------------

MqttUplink::MqttUplink(const std::string& url, const std::string& deviceId, const std::string& key, Mailbox& box)
    : deviceId_(deviceId), key_(key), box_(box) {
  // mqtt://host:port
  std::string rest = url.rfind("mqtt://", 0) == 0 ? url.substr(7) : url;
  const size_t colon = rest.rfind(':');
  host_ = colon == std::string::npos ? rest : rest.substr(0, colon);
  if (colon != std::string::npos) port_ = std::stoi(rest.substr(colon + 1));
}

MqttUplink::~MqttUplink() {
  if (mosq_) mosquitto_destroy(mosq_);
}

bool MqttUplink::start() {
  // Clean session: the server re-publishes an unacknowledged command every 5 s until it times
  // out, so a persistent session would only add stale deliveries.
  mosq_ = mosquitto_new(deviceId_.c_str(), true, this);
  if (!mosq_) return false;
  mosquitto_int_option(mosq_, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311);
  mosquitto_username_pw_set(mosq_, deviceId_.c_str(), key_.c_str());
  const std::string status = "agua/v1/" + deviceId_ + "/status";
  mosquitto_will_set(mosq_, status.c_str(), 7, "offline", 1, true);
  mosquitto_reconnect_delay_set(mosq_, 1, 30, true);
  mosquitto_connect_callback_set(mosq_, onConnect);
  mosquitto_disconnect_callback_set(mosq_, onDisconnect);
  mosquitto_publish_callback_set(mosq_, onPublish);
  mosquitto_message_callback_set(mosq_, onMessage);
  mosquitto_connect_async(mosq_, host_.c_str(), port_, 30);
  return mosquitto_loop_start(mosq_) == MOSQ_ERR_SUCCESS;
}

void MqttUplink::stop() {
  if (!mosq_) return;
  if (connected_) {
    const std::string status = "agua/v1/" + deviceId_ + "/status";
    publishAcked(status, "offline", 7, true, 2000);
    mosquitto_disconnect(mosq_);
  }
  mosquitto_loop_stop(mosq_, true);
}

void MqttUplink::onConnect(mosquitto* m, void* self, int rc) {
  auto* u = static_cast<MqttUplink*>(self);
  if (rc != 0) {
    printLine("{\"event\":\"mqtt\",\"state\":\"refused\",\"rc\":" + std::to_string(rc) + "}");
    return;
  }
  const std::string base = "agua/v1/" + u->deviceId_ + "/";
  mosquitto_publish(m, nullptr, (base + "status").c_str(), 6, "online", 1, true);
  mosquitto_subscribe(m, nullptr, (base + "commands").c_str(), 1);
  mosquitto_subscribe(m, nullptr, (base + "errors").c_str(), 1);
  u->connected_ = true;
  printLine("{\"event\":\"mqtt\",\"state\":\"connected\"}");
}

void MqttUplink::onDisconnect(mosquitto*, void* self, int rc) {
  auto* u = static_cast<MqttUplink*>(self);
  {
    std::lock_guard<std::mutex> lock(u->m_);
    u->connected_ = false;
    ++u->connection_;
  }
  u->cv_.notify_all();
  printLine("{\"event\":\"mqtt\",\"state\":\"disconnected\",\"rc\":" + std::to_string(rc) + "}");
}

void MqttUplink::onPublish(mosquitto*, void* self, int mid) {
  auto* u = static_cast<MqttUplink*>(self);
  {
    std::lock_guard<std::mutex> lock(u->m_);
    u->acked_.insert(mid);
  }
  u->cv_.notify_all();
}

void MqttUplink::onMessage(mosquitto*, void* self, const mosquitto_message* msg) {
  auto* u = static_cast<MqttUplink*>(self);
  const std::string topic = msg->topic;
  std::string payload(static_cast<const char*>(msg->payload), static_cast<size_t>(msg->payloadlen));
  if (topic == "agua/v1/" + u->deviceId_ + "/commands") {
    u->box_.push(std::move(payload));
  } else {
    // The server PUBACKs refused telemetry (3.1.1 has no negative PUBACK) and explains here.
    printLine("{\"event\":\"server_error\",\"body\":" + jsonQuote(payload) + "}");
  }
}

bool MqttUplink::publishAcked(const std::string& topic, const char* body, size_t len, bool retain, int timeoutMs) {
  std::unique_lock<std::mutex> lock(m_);
  const unsigned connection = connection_;
  int mid = 0;
  lock.unlock();
  if (mosquitto_publish(mosq_, &mid, topic.c_str(), static_cast<int>(len), body, 1, retain) != MOSQ_ERR_SUCCESS) return false;
  lock.lock();
  const bool acked = cv_.wait_for(lock, std::chrono::milliseconds(timeoutMs),
                                  [&] { return acked_.count(mid) > 0 || connection_ != connection; });
  const bool ok = acked && acked_.erase(mid) > 0;
  return ok;
}

agua::UplinkResult MqttUplink::send(const char* kind, const std::string& topic, const char* body, size_t len) {
  agua::UplinkResult r;
  const bool ok = connected_ && publishAcked(topic, body, len, false, 10000);
  r.status = ok ? agua::SendStatus::Ok : agua::SendStatus::Retry;
  transportEvent("mqtt", kind, ok ? "\"puback\"" : "\"failed\"");
  return r;
}

agua::UplinkResult MqttUplink::sendTelemetry(const char* body, size_t len) {
  return send("telemetry", "agua/v1/" + deviceId_ + "/telemetry", body, len);
}

agua::UplinkResult MqttUplink::sendAck(const char*, const char* body, size_t len) {
  return send("ack", "agua/v1/" + deviceId_ + "/commands/ack", body, len);
}

}  // namespace host
