/* A stand-in for the SDK's <string.h> (see ../README.md): what CRC32CHardware.c uses. */
#include <stddef.h>
void *memcpy(void *__dst, const void *__src, size_t __n);
