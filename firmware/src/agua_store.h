// Framed records on a Store: magic, version, size and CRC-32, so that a torn write, an erased
// flash page or a record from an older firmware reads as "absent" instead of as garbage.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "agua_ports.h"

namespace agua {

struct RecordHeader {
  uint32_t magic;
  uint32_t size;
  uint32_t crc;
  uint16_t version;
  uint16_t reserved;
};

uint32_t crc32(const void* data, size_t len);

// rec points at a struct whose first member is a RecordHeader.
bool saveRecord(Store& store, const char* name, uint16_t version, void* rec, size_t size);
bool loadRecord(Store& store, const char* name, uint16_t version, void* rec, size_t size);

template <class T>
bool saveRecord(Store& store, const char* name, T& rec) {
  return saveRecord(store, name, T::kVersion, &rec, sizeof rec);
}
template <class T>
bool loadRecord(Store& store, const char* name, T& rec) {
  return loadRecord(store, name, T::kVersion, &rec, sizeof rec);
}

}  // namespace agua
