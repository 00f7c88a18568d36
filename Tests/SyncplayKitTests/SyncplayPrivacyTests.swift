import Testing
@testable import SyncplayKit

/// Expected values computed with Syncplay 1.6.9's own `utils.hashFilename` / `hashFilesize`.
@Suite struct SyncplayPrivacyTests {
    @Test func filenameHashesMatchSyncplays() {
        #expect(SyncplayPrivacy.hashFilename("My.Film (1).mkv") == "721551d86b85")
        #expect(SyncplayPrivacy.hashFilename("party.mp4") == "7535245502c5")
        #expect(SyncplayPrivacy.hashFilename("http://example.com/a%20b/My%20Film.mkv") == "511d8fc882f3")
        #expect(SyncplayPrivacy.hashFilename("Ünïcode-file_name.webm") == "1ee283ab9da3")
    }

    @Test func sizeHashAndPasswordDigestMatchSyncplays() {
        #expect(SyncplayPrivacy.hashFilesize(123_456_789) == "15e2b0d3c338")
        #expect(SyncplayPrivacy.hashFilesize(0) == "5feceb66ffc8")
        #expect(SyncplayPrivacy.passwordDigest("secret") == "5ebe2294ecd0e0f08eab7690d2a6ee69")
    }

    @Test func announcementsFollowTheModes() {
        let raw = SyncplayPrivacy.announce(name: "party.mp4", duration: 60, size: 1234, nameMode: .sendRaw, sizeMode: .sendRaw)
        #expect(raw == SyncplayFile(name: "party.mp4", duration: 60, size: .bytes(1234)))
        let hashed = SyncplayPrivacy.announce(name: "party.mp4", duration: 60, size: 0, nameMode: .sendHashed, sizeMode: .sendHashed)
        #expect(hashed == SyncplayFile(name: "7535245502c5", duration: 60, size: .hashed("5feceb66ffc8")))
        let hidden = SyncplayPrivacy.announce(name: "party.mp4", duration: 60, size: 1234, nameMode: .doNotSend, sizeMode: .doNotSend)
        #expect(hidden == SyncplayFile(name: "**Hidden filename**", duration: 60, size: .bytes(0)))
    }

    @Test func sameFilenameSeesThroughHashesAndSeparators() {
        #expect(SyncplayPrivacy.sameFilename("My Film 1.mkv", "My.Film_(1).mkv"))
        #expect(SyncplayPrivacy.sameFilename("party.mp4", "7535245502c5"))
        #expect(!SyncplayPrivacy.sameFilename("party.mp4", "other.mp4"))
    }
}
