/* A stand-in for the SDK's <sys/sysctl.h> (see ../../README.md): what CRC32CHardware.c uses,
   declared as in the macOS and iOS SDKs. */
#include <stddef.h>
int sysctlbyname(const char *, void *, size_t *, void *, size_t);
