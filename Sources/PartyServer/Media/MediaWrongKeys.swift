import Logging
import NIOCore
import PartyKit
import Synchronization

/// The media endpoint's ``WrongKeyLimiter``, shared by all its connections (a guesser opens a new
/// connection per try): requests presenting a wrong media credential are counted per source
/// address, and an address over the limit is answered 429 until its window has passed.
final class MediaWrongKeys: Sendable {
    private let limiter: Mutex<WrongKeyLimiter>
    private let now: @Sendable () -> Double
    private let logger: Logger

    /// `now`: seconds on a monotonic clock (injected for tests).
    init(policy: WrongKeyLimiter.Policy = .standard, logger: Logger = Logger(label: "tandem.media"),
         now: @escaping @Sendable () -> Double = { Double(NIODeadline.now().uptimeNanoseconds) / 1e9 }) {
        limiter = Mutex(WrongKeyLimiter(policy: policy))
        self.now = now
        self.logger = logger
    }

    func check(_ source: String) -> WrongKeyLimiter.Verdict {
        let now = self.now()
        return limiter.withLock { $0.check(source, now: now) }
    }

    /// Notes a wrong credential; logs (without the credential) when this miss puts `source` over the limit.
    func recordMiss(_ source: String) {
        let now = self.now()
        let verdict = limiter.withLock { limiter in
            limiter.recordMiss(source, now: now)
            return limiter.check(source, now: now)
        }
        if case .refused(let wait) = verdict {
            logger.warning("media: too many wrong credentials; refusing the address", metadata: ["peer": "\(source)", "seconds": "\(wait)"])
        }
    }
}
