import Foundation
import Testing
import SyncplayKit
@testable import SyncplayClient

@Suite struct SyncplayFileFinderTests {
    @Test func findsTheRoomsFileByNameSeparatorsHashOrAnotherUsersPath() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-finder-\(UUID().uuidString)")
        let nested = root.appendingPathComponent("films/2024")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let file = nested.appendingPathComponent("My.Film (1).mkv").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))

        #expect(SyncplayFileFinder.find("My.Film (1).mkv", in: [root.path]) == file)
        #expect(SyncplayFileFinder.find("my film 1.mkv", in: [root.path]) == file)
        #expect(SyncplayFileFinder.find(SyncplayPrivacy.hashFilename("My.Film (1).mkv"), in: [root.path]) == file)
        #expect(SyncplayFileFinder.find("/home/amy/videos/My.Film (1).mkv", in: [root.path]) == file)
        #expect(SyncplayFileFinder.find("Other.mkv", in: [root.path]) == nil)
        #expect(SyncplayFileFinder.find("My.Film (1).mkv", in: [root.appendingPathComponent("absent").path]) == nil)
    }
}
