import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// File-system checks and clean-up around the server's socket path, so failures name the path
/// and a reason a user can act on instead of a bare `bind` errno.
enum IPCSocketPath {
    /// The longest path a `sockaddr_un` holds (107 bytes on Linux, 103 on macOS).
    static let maxLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Checks that a socket can be created at `path`.
    static func validate(_ path: String) throws(IPCServerError) {
        func fail(_ reason: String) -> IPCServerError { IPCServerError(path: path, reason: reason) }

        guard !path.isEmpty else { throw fail("the path is empty") }
        let length = path.utf8.count
        guard length <= maxLength else {
            throw fail("the path is \(length) bytes long; a UNIX socket path can have at most \(maxLength)")
        }
        let directory = parentDirectory(of: path)
        var info = stat()
        guard stat(directory, &info) == 0 else {
            let code = errno
            if code == ENOENT { throw fail("directory \(directory) does not exist") }
            throw fail("cannot access directory \(directory): \(message(for: code))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw fail("\(directory) is not a directory") }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw fail("directory \(directory) is not writable: \(message(for: errno))")
        }
        if lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFSOCK {
            throw fail("a file that is not a socket already exists there")
        }
    }

    /// Deletes the socket file at `path`, if what is there is a socket.
    ///
    /// NIO already unlinks a UNIX server socket's path when the channel closes; this covers the
    /// cases where that did not happen (e.g. the channel failed to close cleanly).
    static func removeSocket(at path: String) {
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK {
            unlink(path)
        }
    }

    /// A short reason for a failed `bind`.
    static func reason(for error: any Error) -> String {
        switch error {
        case let error as IOError: message(for: error.errnoCode)
        case SocketAddressError.unixDomainSocketPathTooLong: "the path is too long for a UNIX socket"
        case is UnixDomainSocketPathWrongType: "a file that is not a socket already exists there"
        default: "\(error)"
        }
    }

    private static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func message(for code: CInt) -> String {
        String(cString: strerror(code))
    }
}
