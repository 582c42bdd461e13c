#include "agua_store.h"

#include <string.h>

namespace agua {

namespace {
constexpr uint32_t kMagic = 0x41475541;  // "AGUA"
}

uint32_t crc32(const void* data, size_t len) {
  // Bitwise CRC-32 (IEEE): no 1 KB table in RAM or flash; records are small and rarely written.
  const uint8_t* p = static_cast<const uint8_t*>(data);
  uint32_t crc = 0xFFFFFFFFu;
  while (len--) {
    crc ^= *p++;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

bool saveRecord(Store& store, const char* name, uint16_t version, void* rec, size_t size) {
  RecordHeader* h = static_cast<RecordHeader*>(rec);
  h->magic = kMagic;
  h->size = static_cast<uint32_t>(size);
  h->version = version;
  h->reserved = 0;
  h->crc = crc32(h + 1, size - sizeof *h);
  return store.save(name, rec, size);
}

bool loadRecord(Store& store, const char* name, uint16_t version, void* rec, size_t size) {
  RecordHeader* h = static_cast<RecordHeader*>(rec);
  const size_t n = store.load(name, rec, size);
  const bool ok = n == size && h->magic == kMagic && h->size == size && h->version == version &&
                  h->crc == crc32(h + 1, size - sizeof *h);
  if (!ok) memset(rec, 0, size);
  return ok;
}

}  // namespace agua
