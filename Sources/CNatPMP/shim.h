#ifndef TANDEM_CNATPMP_SHIM_H
#define TANDEM_CNATPMP_SHIM_H
// libnatpmp (Debian's libnatpmp-dev, which ships no pkg-config file): a NAT-PMP (RFC 6886) client.
#include <natpmp.h>
#include <arpa/inet.h>
#endif
