import Logging
import MediaTime
import NIOCore
import NIOSSL
import PartyKit
import PartyServer
import SyncplayKit
import SyncplayNet

/// One Syncplay client at the gateway: its connection, and the party member it is, driven by a
/// ``SyncplayPartyBridge`` from one task. Everything that happens (a line, a party message, a
/// tick, an epoch's instant) is an input of one stream, handled in order; the bridge's outputs are
/// carried out here. It owns its member: when the connection ends, the member says bye.
final class SyncplayGatewayClient: Sendable {
    /// How often the bridge is ticked: states go out once a second, timeouts are checked.
    static let tickInterval = 0.25

    enum Input: Sendable {
        case connection(SyncplayConnection.Event)
        case party(PartyServerRunner.LocalEvent)
        case tick
        case due(epoch: Int)
    }

    private let channel: any Channel
    private let inputs: AsyncStream<Input>.Continuation
    private let run: Task<Void, Never>

    /// `grace`: when the gateway started, for the bridge's "no party" decision (``SyncplayRestartGrace``).
    init(channel: any Channel, peer: String, parties: PartyServerRunner, tls: NIOSSLContext?, grace: SyncplayRestartGrace,
         logger: Logger, onEnd: @escaping @Sendable (SyncplayGatewayClient) -> Void) {
        self.channel = channel
        let (stream, inputs) = AsyncStream.makeStream(of: Input.self)
        self.inputs = inputs
        let driver = Driver(channel: channel, peer: peer, parties: parties, tls: tls, grace: grace, inputs: inputs, logger: logger)
        run = Task { await driver.run(stream) }
        let run = run
        Task { [weak self] in
            await run.value
            if let self { onEnd(self) }
        }
    }

    func deliver(_ event: SyncplayConnection.Event) {
        inputs.yield(.connection(event))
    }

    func close() { channel.close(promise: nil) }

    /// Returns once the client is gone (its member has left).
    func finished() async { await run.value }

    /// The task's state: not shared, so a plain struct held by the one task that runs it.
    private struct Driver: Sendable {
        let channel: any Channel
        let peer: String
        let parties: PartyServerRunner
        /// The party server's TLS identity, offered to clients asking for STARTTLS.
        let tls: NIOSSLContext?
        let grace: SyncplayRestartGrace
        let inputs: AsyncStream<Input>.Continuation
        let logger: Logger
        let clock = MonotonicTimeSource()

        func run(_ stream: AsyncStream<Input>) async {
            var bridge = SyncplayPartyBridge(offersTLS: tls != nil, now: clock.now(), grace: grace)
            var member: Int?
            var timer: Task<Void, Never>?
            let ticker = Task { [inputs] in
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: UInt64(SyncplayGatewayClient.tickInterval * 1e9))
                    inputs.yield(.tick)
                }
            }
            loop: for await input in stream {
                let now = clock.now()
                var outputs: [SyncplayPartyBridge.Output]
                switch input {
                case .connection(.line(let bytes)):
                    do throws(SyncplayProtocolError) {
                        outputs = bridge.received(try SyncplayCodec.decode(bytes), now: now)
                    } catch {
                        logger.info("syncplay client refused", metadata: ["peer": "\(peer)", "reason": "\(error)"])
                        outputs = bridge.refused(error)
                    }
                case .connection(.refused(let error)):
                    // The line handler told the peer and closes the connection.
                    logger.info("syncplay client refused", metadata: ["peer": "\(peer)", "reason": "\(error)"])
                    outputs = bridge.closed()
                case .connection(.closed), .connection(.transportError):
                    outputs = bridge.closed()
                    await perform(outputs, &member, &timer, &bridge)
                    break loop
                case .connection(.tlsEstablished):
                    logger.debug("syncplay client encrypted (STARTTLS)", metadata: ["peer": "\(peer)"])
                    outputs = []
                case .party(.message(let message)):
                    outputs = bridge.fromParty(message, now: now)
                case .party(.closed(let reason)):
                    member = nil
                    outputs = bridge.partyClosed(reason, now: now)
                case .tick:
                    outputs = bridge.tick(now: now)
                case .due(let epoch):
                    outputs = bridge.timelineDue(epoch: epoch, now: now)
                }
                await perform(outputs, &member, &timer, &bridge)
            }
            ticker.cancel()
            timer?.cancel()
            if let member { await leave(member) }
            channel.close(promise: nil)
        }

        private func perform(_ outputs: [SyncplayPartyBridge.Output], _ member: inout Int?, _ timer: inout Task<Void, Never>?,
                             _ bridge: inout SyncplayPartyBridge) async {
            var pending = outputs[...]
            while let output = pending.popFirst() {
                switch output {
                case .syncplay(let message):
                    channel.writeAndFlush(channel.allocator.buffer(string: SyncplayCodec.encodeLine(message)), promise: nil)
                case .startTLS:
                    startTLS()
                case .close(let reason):
                    logger.info("syncplay client closed", metadata: ["peer": "\(peer)", "reason": "\(reason)"])
                    SyncplayLingeringClose.close(channel)
                case .checkKey(let party, let digest):
                    let check = await parties.checkKey(party: party, source: peer) { key in
                        ConstantTime.equals(SyncplayPrivacy.passwordDigest(key), digest)
                    }
                    let answer: SyncplayPartyBridge.KeyCheck = switch check {
                    case .accepted(let key): .accepted(key: key)
                    case .unknownParty: .unknownParty
                    case .wrongKey: .wrongKey
                    case .refused(let wait): .refused(WrongKeyLimiter.refusal(retryAfter: wait))
                    }
                    if case .wrongKey = answer { logger.info("syncplay client gave a wrong password", metadata: ["peer": "\(peer)"]) }
                    pending.append(contentsOf: bridge.keyChecked(answer, now: clock.now()))
                case .connect(let hello):
                    let inputs = inputs
                    let id = await parties.connectLocal(source: peer) { inputs.yield(.party($0)) }
                    member = id
                    await parties.receiveLocal(id, .hello(hello))
                case .party(let message):
                    if let member { await parties.receiveLocal(member, message) }
                case .leaveParty:
                    if let id = member { await leave(id) }
                    member = nil
                case .wake(let at, let epoch):
                    let delay = max(0, at - clock.now())
                    let inputs = inputs
                    // A later epoch supersedes the one it replaces before its instant.
                    timer?.cancel()
                    timer = Task {
                        try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                        if !Task.isCancelled { inputs.yield(.due(epoch: epoch)) }
                    }
                case .log(let line):
                    logger.info("\(line)", metadata: ["peer": "\(peer)"])
                }
            }
        }

        /// Puts a TLS server in front of the line handler. On the event loop, after the writes
        /// already asked for (the "true" answer goes out in plain text): the next bytes are the
        /// client's handshake.
        private func startTLS() {
            guard let tls else { return }
            let channel = channel
            channel.eventLoop.execute {
                do {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls), position: .first)
                } catch {
                    channel.pipeline.fireErrorCaught(error)
                }
            }
        }

        private func leave(_ member: Int) async {
            await parties.receiveLocal(member, .bye)
            await parties.disconnectLocal(member)
        }
    }
}
