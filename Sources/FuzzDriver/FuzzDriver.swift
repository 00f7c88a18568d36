#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What every fuzz target's `main` hands over: one input's bytes in, 0 out (libFuzzer's
/// `LLVMFuzzerTestOneInput`). A failed check traps, which libFuzzer reports as a crash.
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: FuzzTest
) -> CInt
#endif

/// Runs a fuzz target. Built with `-sanitize=fuzzer -DFUZZING` (`scripts/fuzz.sh`), this is
/// libFuzzer with its usual arguments (corpus folders, `-max_total_time=…`). Built normally, it is a
/// regression runner: every file named, and every file in every folder named, is run once through
/// `test` (a crash is the failure), so `swift build` builds the targets and CI can replay corpora.
public enum FuzzDriver {
    public static func main(_ test: FuzzTest) -> Never {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, test))
        #else
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            for file in files(at: path) {
                guard let bytes = read(file) else {
                    var message = Array("cannot read \(file)\n".utf8)
                    _ = write(2, &message, message.count)
                    exit(1)
                }
                _ = bytes.withUnsafeBufferPointer { test($0.baseAddress, $0.count) }
                count += 1
            }
        }
        print("ran \(count) inputs without a crash")
        exit(0)
        #endif
    }

    /// `path` itself, or the regular files directly in it when it is a folder (sorted).
    static func files(at path: String) -> [String] {
        guard let dir = opendir(path) else { return [path] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(path + "/" + name) }
        }
        return names.sorted()
    }

    static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n > 0 { bytes += chunk[..<n] }
            if n < chunk.count { break }
        }
        return ferror(file) == 0 ? bytes : nil
    }
}

extension Array where Element == UInt8 {
    /// The input bytes libFuzzer passes (an empty input may come as a null pointer).
    public init(fuzzInput data: UnsafePointer<UInt8>?, count: Int) {
        guard let data, count > 0 else { self = []; return }
        self = Array(UnsafeBufferPointer(start: data, count: count))
    }
}
