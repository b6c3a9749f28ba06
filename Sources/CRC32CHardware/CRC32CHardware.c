// See include/CRC32CHardware.h. Each function is compiled for the instruction it needs
// (`target` attribute) and reached only after the run-time check, so the library still runs
// on a processor without it.
#include "CRC32CHardware.h"
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>

int crc32c_hardware_available(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    return (c & (1u << 20)) != 0;   // CPUID.1:ECX.SSE4_2
}

#define CRC_TARGET __attribute__((target("sse4.2")))
#define CRC_WORD(crc, word) ((uint32_t)__builtin_ia32_crc32di((crc), (word)))
#define CRC_BYTE(crc, byte) __builtin_ia32_crc32qi((crc), (byte))

#elif defined(__aarch64__)
#if defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1 << 7)
#endif
int crc32c_hardware_available(void) { return (getauxval(AT_HWCAP) & HWCAP_CRC32) != 0; }
#elif defined(__APPLE__)
#include <sys/sysctl.h>
// Not every 64-bit Apple processor has it: the A7 to A9 lack it (tvOS 18 still runs on the
// A8 of the Apple TV HD). The kernel says, as 1 or 0; a failed call counts as no.
int crc32c_hardware_available(void) {
    int has = 0;
    size_t size = sizeof has;
    if (sysctlbyname("hw.optional.armv8_crc32", &has, &size, NULL, 0) != 0) return 0;
    return has != 0;
}
#else
int crc32c_hardware_available(void) { return 0; }
#endif

#define CRC_TARGET __attribute__((target("crc")))
#define CRC_WORD(crc, word) __builtin_arm_crc32cd((crc), (word))
#define CRC_BYTE(crc, byte) __builtin_arm_crc32cb((crc), (byte))

#endif

#if defined(CRC_TARGET)

static inline uint64_t load64(const unsigned char *p) {
    uint64_t word;
    memcpy(&word, p, sizeof word);   // unaligned, little-endian on both architectures
    return word;
}

CRC_TARGET
uint32_t crc32c_hardware_update(uint32_t crc, const void *bytes, size_t count) {
    const unsigned char *p = bytes;
    while (count >= 8) {
        crc = CRC_WORD(crc, load64(p));
        p += 8;
        count -= 8;
    }
    while (count > 0) {
        crc = CRC_BYTE(crc, *p);
        p += 1;
        count -= 1;
    }
    return crc;
}

CRC_TARGET
void crc32c_hardware_update4(uint32_t crc[4], const void *const bytes[4], size_t count) {
    const unsigned char *a = bytes[0], *b = bytes[1], *c = bytes[2], *d = bytes[3];
    uint32_t ca = crc[0], cb = crc[1], cc = crc[2], cd = crc[3];
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        ca = CRC_WORD(ca, load64(a + i));
        cb = CRC_WORD(cb, load64(b + i));
        cc = CRC_WORD(cc, load64(c + i));
        cd = CRC_WORD(cd, load64(d + i));
    }
    crc[0] = crc32c_hardware_update(ca, a + i, count - i);
    crc[1] = crc32c_hardware_update(cb, b + i, count - i);
    crc[2] = crc32c_hardware_update(cc, c + i, count - i);
    crc[3] = crc32c_hardware_update(cd, d + i, count - i);
}

#else

int crc32c_hardware_available(void) { return 0; }
uint32_t crc32c_hardware_update(uint32_t crc, const void *bytes, size_t count) {
    (void)bytes; (void)count;
    return crc;   // never called: crc32c_hardware_available() is 0
}
void crc32c_hardware_update4(uint32_t crc[4], const void *const bytes[4], size_t count) {
    (void)crc; (void)bytes; (void)count;
}

#endif
