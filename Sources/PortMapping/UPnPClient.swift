import CMiniUPnPc

/// UPnP-IGD through libminiupnpc (Debian's libminiupnpc-dev): the SSDP search, the device's XML
/// description and the SOAP actions are the library's; it fits whole. Every call blocks (run
/// through ``BlockingCall``).
struct UPnPClient: Sendable {
    /// The device type searched for. IGD:2 devices answer it too (UPnP devices answer searches for
    /// their earlier versions). Searching one type keeps the search to one wait, where
    /// `upnpDiscover` tries four types, each with its own wait.
    static let deviceType = "urn:schemas-upnp-org:device:InternetGatewayDevice:1"
    /// How long the SSDP search listens for answers after the last one, in milliseconds: a router
    /// on the LAN answers within tens of milliseconds; this is the whole wait when none does.
    static let searchWait: Int32 = 1000
    /// The multicast TTL (miniupnpc's recommended 2): the search stays on this network.
    static let searchTTL: UInt8 = 2
    /// The description mappings carry in the router's list.
    static let mappingDescription = "Tandem party"

    /// An IGD found: where its WAN connection service takes actions, and the address this machine
    /// reaches it from (the mapping's internal client).
    struct Device: Sendable, Equatable {
        var controlURL: String
        var serviceType: String
        var internalClient: String
    }

    /// Searches the LAN for an IGD (multicast from `interfaceAddress`); the device, or why there is none.
    static func search(from interfaceAddress: IPv4Address?) -> Result<Device, SearchFailure> {
        var error: Int32 = 0
        let list = upnpDiscoverDevice(deviceType, searchWait, interfaceAddress?.description, nil, 0, 0, searchTTL, &error)
        guard let list else { return .failure(SearchFailure(description: "no IGD answered the SSDP search")) }
        defer { freeUPNPDevlist(list) }
        var urls = UPNPUrls()
        var data = IGDdatas()
        var lanAddress = [CChar](repeating: 0, count: 64)
        let found = UPNP_GetValidIGD(list, &urls, &data, &lanAddress, Int32(lanAddress.count))
        defer { if found != 0 { FreeUPNPUrls(&urls) } }
        // 1: a connected IGD; 2: an IGD that says it is not connected, or whose external address is
        // private (miniupnpc 2.2 sorts those there; the address is judged after mapping).
        guard found == 1 || found == 2, let control = urls.controlURL else {
            return .failure(SearchFailure(description: found == 0 ? "no IGD answered the SSDP search" : "a UPnP device answered, but it is no IGD"))
        }
        let serviceType = String(cString: tandem_igd_service_type(&data))
        let client = String(decoding: lanAddress.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return .success(Device(controlURL: String(cString: control), serviceType: serviceType, internalClient: client))
    }

    struct SearchFailure: Error, CustomStringConvertible {
        let description: String
    }

    let device: Device

    /// AddPortMapping of `externalPort` → `internalPort` (TCP) for `lifetime` seconds (0: permanent),
    /// then GetExternalIPAddress.
    func request(internalPort: Int, externalPort: Int, lifetime: Int) -> MappingAnswer {
        let added = UPNP_AddPortMapping(device.controlURL, device.serviceType, "\(externalPort)", "\(internalPort)",
                                        device.internalClient, Self.mappingDescription, "TCP", nil, "\(lifetime)")
        guard added == UPNPCOMMAND_SUCCESS else { return Self.answer(forError: added) }
        var text = [CChar](repeating: 0, count: 40)
        let asked = UPNP_GetExternalIPAddress(device.controlURL, device.serviceType, &text)
        let shown = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard asked == UPNPCOMMAND_SUCCESS, let address = IPv4Address(shown) else {
            delete(externalPort: externalPort)
            return .noAnswer("the router mapped the port but gave no external address (\(asked == 0 ? "\"\(shown)\"" : Self.describe(asked)))")
        }
        return .granted(PortMappingGrant(method: .upnp, externalAddress: address, externalPort: externalPort,
                                         internalPort: internalPort, lifetime: lifetime))
    }

    func delete(externalPort: Int) {
        _ = UPNP_DeletePortMapping(device.controlURL, device.serviceType, "\(externalPort)", "TCP", nil)
    }

    /// What an error code of a SOAP action means here. 718 and 729: the port is someone else's;
    /// 725: permanent leases only.
    static func answer(forError code: Int32) -> MappingAnswer {
        switch code {
        case 718, 729: .refused(MappingRefusal(.portTaken, describe(code)))
        case 725: .refused(MappingRefusal(.permanentLeasesOnly, describe(code)))
        case let code where code < 0: .noAnswer(describe(code))
        default: .refused(MappingRefusal(.other, describe(code)))
        }
    }

    /// `UPnP error 718 (ConflictInMappingEntry)`.
    static func describe(_ code: Int32) -> String {
        let name = strupnperror(code).map { String(cString: $0) } ?? "unknown"
        return code < 0 ? "the IGD's answer failed: \(name)" : "UPnP error \(code) (\(name))"
    }
}
