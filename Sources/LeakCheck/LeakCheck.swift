import FFmpegKit
#if canImport(Glibc)
import Glibc
#endif
import PlayerCore

/// `scripts/leak-check.sh`: opens, prerolls (a seek) and closes a file COUNT times in one process, built
/// with AddressSanitizer so LeakSanitizer reports whatever a cycle leaves behind. Its own executable so
/// the sanitizer build holds the player and FFmpeg only, not the whole of `tandem`.
@main enum LeakCheck {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        guard let file = arguments.first, arguments.count <= 2, let count = Int(arguments.dropFirst().first ?? "1000"), count > 0 else {
            print("usage: LeakCheck FILE [COUNT]")
            exit(2)
        }
        FFmpegLog.configure()
        do {
            for _ in 0..<count {
                let player = try await Player.open(file)
                await player.seek(to: 0.5)
                await player.close()
            }
        } catch {
            print("LeakCheck: \(file): \(error)")
            exit(1)
        }
    }
}
