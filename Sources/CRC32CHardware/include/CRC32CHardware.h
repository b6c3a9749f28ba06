// The processor's own CRC-32C instruction (SSE 4.2 on x86-64, the CRC extension on 64-bit
// ARM), for ObjectStore's page checksums. ObjectStore keeps a table-driven implementation
// in Swift and uses these functions only when `crc32c_hardware_available()` says so.
#ifndef CRC32C_HARDWARE_H
#define CRC32C_HARDWARE_H

#include <stddef.h>
#include <stdint.h>

/// 1 when this processor has a CRC-32C instruction these functions use, 0 otherwise (then
/// the other functions must not be called).
int crc32c_hardware_available(void);

/// The CRC-32C state after `count` bytes at `bytes`, starting from `crc` (neither end is
/// inverted here: the caller starts from 0xFFFFFFFF and inverts the result).
uint32_t crc32c_hardware_update(uint32_t crc, const void *bytes, size_t count);

/// Four states advanced over `count` bytes of four buffers at once (the instructions of the
/// four chains overlap in the processor): `crc[k]` over `count` bytes at `bytes[k]`.
void crc32c_hardware_update4(uint32_t crc[4], const void *const bytes[4], size_t count);

#endif
