#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ends the process by `signal` with its default action, from the calling thread (unblocked there
/// first: dispatch reads signals from a signalfd while threads block them), so a shell sees its child
/// killed by that signal. Used where a second Ctrl-C must end a quit that is stuck.
public func dieOfSignal(_ signal: Int32) -> Never {
    _ = Glibc.signal(signal, SIG_DFL)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    raise(signal)
    exit(128 + signal)  // not reached: the default action of SIGINT and SIGTERM ends the process
}
