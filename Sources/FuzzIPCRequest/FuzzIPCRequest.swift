import Dispatch
import FuzzDriver
import MPVIPC

/// The mpv IPC request decoder and handler: the input is a client's byte stream, split into lines
/// as the server does; every line gets a reply that serializes to one line of JSON, and nothing traps.
@main enum FuzzIPCRequest {
    static func main() { FuzzDriver.main(fuzzOneInput) }

    /// Longest line looked at (the server refuses longer ones before decoding).
    static let maxLine = MPVIPC.IPCServer.defaultMaxLineLength

}

/// A paused player at 12.5 s of a 60 s file that accepts every request.
struct StillTarget: IPCTarget {
    func property(_ property: IPCProperty) async -> IPCValue? {
        switch property {
        case .timePos: .double(12.5)
        case .pause: .bool(true)
        case .speed: .double(1)
        case .duration: .double(60)
        case .pausedForCache: .bool(false)
        case .streamStart: .double(0)
        case .timeSample: .sample(position: 12.5, paused: true, at: 0)
        }
    }
    func setPause(_ paused: Bool) async throws(IPCRefusal) {}
    func setSpeed(_ speed: Double) async throws(IPCRefusal) {}
    func seek(to seconds: Double) async throws(IPCRefusal) {}
    func quit() async {}
    func propertyChanges() -> AsyncStream<IPCPropertyChange> { AsyncStream { $0.finish() } }
}

/// One input (libFuzzer's entry point; the replaying `main` calls it too).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = [UInt8](fuzzInput: data, count: count)
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        .filter { $0.count <= FuzzIPCRequest.maxLine }
        .map { String(decoding: $0, as: UTF8.self) }
    let done = DispatchSemaphore(value: 0)
    Task {
        var handler = IPCRequestHandler(target: StillTarget())
        for line in lines {
            let response = await handler.handle(line: line)
            for message in response.messages {
                let text = message.serialized
                precondition(!text.contains("\n"), "a reply to \(line.debugDescription) spans lines: \(text.debugDescription)")
                precondition(JSONValue.parse(text) != nil, "a reply to \(line.debugDescription) is not JSON: \(text.debugDescription)")
            }
        }
        done.signal()
    }
    done.wait()
    return 0
}
