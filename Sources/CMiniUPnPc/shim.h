#ifndef TANDEM_CMINIUPNPC_SHIM_H
#define TANDEM_CMINIUPNPC_SHIM_H
// libminiupnpc (Debian's libminiupnpc-dev, 2.2): UPnP-IGD discovery (SSDP) and its SOAP actions.
#include <miniupnpc/miniupnpc.h>
#include <miniupnpc/upnpcommands.h>
#include <miniupnpc/upnperrors.h>

/// The service type of the IGD's first WAN connection service (a fixed-size char array Swift sees
/// as a tuple).
static inline const char *tandem_igd_service_type(const struct IGDdatas *data) {
    return data->first.servicetype;
}
#endif
