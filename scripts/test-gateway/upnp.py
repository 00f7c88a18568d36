"""UPnP IGD: the SSDP answer to an M-SEARCH, the device description, and the WANIPConnection's SOAP
actions (GetStatusInfo, GetExternalIPAddress, AddPortMapping, DeletePortMapping)."""
import http.server, re

IGD = "urn:schemas-upnp-org:device:InternetGatewayDevice:1"
WANIP = "urn:schemas-upnp-org:service:WANIPConnection:1"
UUID = "uuid:7a4d7e00-7a4d-4d7e-8000-000000000001"
SEARCHED = (IGD, "ssdp:all", "upnp:rootdevice", WANIP)
DESCRIPTION = f"""<?xml version="1.0"?>
<root xmlns="urn:schemas-upnp-org:device-1-0"><specVersion><major>1</major><minor>0</minor></specVersion>
<device><deviceType>{IGD}</deviceType><friendlyName>Tandem test gateway</friendlyName><UDN>{UUID}</UDN>
<deviceList><device><deviceType>urn:schemas-upnp-org:device:WANDevice:1</deviceType><UDN>{UUID}1</UDN>
<serviceList><service><serviceType>urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1</serviceType>
<serviceId>urn:upnp-org:serviceId:WANCommonIFC1</serviceId><controlURL>/ctl/CmnIfCfg</controlURL>
<eventSubURL>/evt/CmnIfCfg</eventSubURL><SCPDURL>/WANCfg.xml</SCPDURL></service></serviceList>
<deviceList><device><deviceType>urn:schemas-upnp-org:device:WANConnectionDevice:1</deviceType><UDN>{UUID}2</UDN>
<serviceList><service><serviceType>{WANIP}</serviceType><serviceId>urn:upnp-org:serviceId:WANIPConn1</serviceId>
<controlURL>/ctl/IPConn</controlURL><eventSubURL>/evt/IPConn</eventSubURL><SCPDURL>/WANIPCn.xml</SCPDURL>
</service></serviceList></device></deviceList></device></deviceList></device></root>
"""
ENVELOPE = ('<?xml version="1.0"?>\r\n<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" '
            's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>{}</s:Body></s:Envelope>\r\n')
ERRORS = {401: "Invalid Action", 606: "Action not authorized", 714: "NoSuchEntryInArray", 718: "ConflictInMappingEntry"}


def answer_searches(sock, location):
    """Answers M-SEARCHes for the IGD arriving on `sock` (port 1900, in the SSDP group) with `location`."""
    while True:
        data, source = sock.recvfrom(2048)
        text = data.decode(errors="replace")
        st = re.search(r"^ST:\s*(\S+)", text, re.I | re.M)
        if not text.startswith("M-SEARCH") or not st or st.group(1) not in SEARCHED:
            continue
        reply = (f"HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=120\r\nST: {st.group(1)}\r\nUSN: {UUID}::{st.group(1)}\r\nEXT:\r\n"
                 f"SERVER: Linux UPnP/1.1 TandemTestGateway/1.0\r\nLOCATION: {location}\r\n\r\n")
        sock.sendto(reply.encode(), source)


def control(mappings):
    """The HTTP handler of the description and the control URL, on `mappings`."""

    class Control(http.server.BaseHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def send(self, status, body):
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", 'text/xml; charset="utf-8"')
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def ok(self, action, body=""):
            self.send(200, ENVELOPE.format(f'<u:{action}Response xmlns:u="{WANIP}">{body}</u:{action}Response>'))

        def fault(self, code):
            self.send(500, ENVELOPE.format(
                '<s:Fault><faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring><detail>'
                f'<UPnPError xmlns="urn:schemas-upnp-org:control-1-0"><errorCode>{code}</errorCode>'
                f"<errorDescription>{ERRORS[code]}</errorDescription></UPnPError></detail></s:Fault>"))

        def do_GET(self):
            self.send(200, DESCRIPTION) if self.path == "/rootDesc.xml" else self.send(404, "")

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode(errors="replace")
            action = (self.headers.get("SOAPAction", "").strip('"').split("#") + [""])[1]

            def arg(name):
                m = re.search(rf"<{name}>([^<]*)</{name}>", body)
                return m.group(1) if m else ""

            if action == "GetStatusInfo":
                self.ok(action, "<NewConnectionStatus>Connected</NewConnectionStatus>"
                                "<NewLastConnectionError>ERROR_NONE</NewLastConnectionError>"
                                f"<NewUptime>{mappings.epoch()}</NewUptime>")
            elif action == "GetExternalIPAddress":
                self.ok(action, f"<NewExternalIPAddress>{mappings.external}</NewExternalIPAddress>")
            elif action == "AddPortMapping":
                client, lease = arg("NewInternalClient"), int(arg("NewLeaseDuration") or 0)
                if arg("NewProtocol") != "TCP" or client != self.client_address[0]:
                    return self.fault(606)
                life = 0 if lease == 0 else min(lease, mappings.lifetime_cap)
                code = mappings.add_upnp(int(arg("NewExternalPort") or 0), client, int(arg("NewInternalPort") or 0), life)
                self.fault(code) if code else self.ok(action)
            elif action == "DeletePortMapping":
                deleted = mappings.delete("upnp", int(arg("NewExternalPort") or 0))
                self.ok(action) if deleted else self.fault(714)
            else:
                self.fault(401)

    return Control
