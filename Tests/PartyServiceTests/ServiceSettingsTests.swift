import Foundation
import Logging
import Testing
@testable import PartyService

/// Options, then TANDEM_* variables, then the config file, then the defaults; wrong values are errors.
struct ServiceSettingsTests {
    static func file(_ json: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-serve-\(UUID().uuidString).json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func optionsWinOverTheEnvironmentWhichWinsOverTheFile() async throws {
        let path = try Self.file(#"{"listen": "0.0.0.0:1000", "admin": {"listen": "127.0.0.1:2000"}, "log": {"level": "debug"}, "cache": {"size": 7}, "drain.seconds": 2.5}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fromFile = try await ServiceSettings.resolve(options: [:], environment: [:], configFile: path)
        #expect(fromFile.listen == "0.0.0.0:1000" && fromFile.adminListen == "127.0.0.1:2000")
        #expect(fromFile.logLevel == .debug && fromFile.cacheSizeMB == 7 && fromFile.drainSeconds == 2.5)
        let fromEnvironment = try await ServiceSettings.resolve(
            options: [:], environment: ["TANDEM_LISTEN": "0.0.0.0:3000", "TANDEM_CACHE_SIZE": "9", "LISTEN": "0.0.0.0:9"], configFile: path)
        #expect(fromEnvironment.listen == "0.0.0.0:3000", "TANDEM_ variables only")
        #expect(fromEnvironment.cacheSizeMB == 9 && fromEnvironment.adminListen == "127.0.0.1:2000")
        let fromOptions = try await ServiceSettings.resolve(
            options: ["listen": "127.0.0.1:4000"], environment: ["TANDEM_LISTEN": "0.0.0.0:3000"], configFile: path)
        #expect(fromOptions.listen == "127.0.0.1:4000")
    }

    @Test func defaultsWithoutAnything() async throws {
        let s = try await ServiceSettings.resolve(options: [:], environment: [:], configFile: nil)
        #expect(s == ServiceSettings())
    }

    @Test func wrongValuesAreErrorsNamingTheKey() async throws {
        await #expect(throws: ServiceSettingsError.invalid("cache.size", "big", "a number", "options or TANDEM_*")) {
            _ = try await ServiceSettings.resolve(options: [:], environment: ["TANDEM_CACHE_SIZE": "big"], configFile: nil)
        }
        await #expect(throws: ServiceSettingsError.self) {
            _ = try await ServiceSettings.resolve(options: ["log.level": "loud"], environment: [:], configFile: nil)
        }
        await #expect(throws: ServiceSettingsError.self) {
            _ = try await ServiceSettings.resolve(options: [:], environment: ["TANDEM_DRAIN_SECONDS": "-1"], configFile: nil)
        }
        await #expect(throws: ServiceSettingsError.self) {
            _ = try await ServiceSettings.resolve(options: [:], environment: ["TANDEM_INSECURE": "perhaps"], configFile: nil)
        }
    }

    /// The router's port: on unless turned off; a forward given by hand.
    @Test func portMappingAndPublicAddress() async throws {
        let path = try Self.file(#"{"port": {"mapping": false}, "public.address": "home.example.org:8000"}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fromFile = try await ServiceSettings.resolve(options: [:], environment: [:], configFile: path)
        #expect(!fromFile.portMapping && fromFile.publicAddress == "home.example.org:8000")
        let fromEnvironment = try await ServiceSettings.resolve(options: [:], environment: ["TANDEM_PORT_MAPPING": "true"], configFile: path)
        #expect(fromEnvironment.portMapping)
        let fromOptions = try await ServiceSettings.resolve(options: ["port.mapping": "false"], environment: [:], configFile: nil)
        #expect(!fromOptions.portMapping && fromOptions.publicAddress == nil)
        await #expect(throws: ServiceSettingsError.invalid("port.mapping", "sometimes", "true or false", "options or TANDEM_*")) {
            _ = try await ServiceSettings.resolve(options: [:], environment: ["TANDEM_PORT_MAPPING": "sometimes"], configFile: nil)
        }
    }

    @Test func aNumberWhereTextBelongsIsAnError() async throws {
        let path = try Self.file(#"{"listen": 5}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        await #expect(throws: ServiceSettingsError.invalid("listen", "5", "text", "options, TANDEM_* or \(path)")) {
            _ = try await ServiceSettings.resolve(options: [:], environment: [:], configFile: path)
        }
    }

    @Test func aTypoInTheFileIsNamed() async throws {
        let path = try Self.file(#"{"lisen": "0.0.0.0:1"}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        await #expect(throws: ServiceSettingsError.unknownKey("lisen", path)) {
            _ = try await ServiceSettings.resolve(options: [:], environment: [:], configFile: path)
        }
    }

    @Test func missingEmptyAndNonJSONFilesAreNamed() async throws {
        let missing = "/nonexistent/tandem.json"
        do {
            _ = try await ServiceSettings.resolve(options: [:], environment: [:], configFile: missing)
            Issue.record("a missing file was accepted")
        } catch {
            #expect("\(error)".contains(missing))
        }
        for text in ["", "not json", "[1, 2]"] {
            let path = try Self.file(text)
            defer { try? FileManager.default.removeItem(atPath: path) }
            await #expect(throws: ServiceSettingsError.unreadable(path, "not a JSON object")) {
                _ = try await ServiceSettings.resolve(options: [:], environment: [:], configFile: path)
            }
        }
    }
}

extension ServiceSettingsTests {
    /// `syncplay` (`--syncplay`, TANDEM_SYNCPLAY): the gateway's `[HOST:]PORT`, in a file also a bare
    /// port number; options and the environment win over the file as for every key.
    @Test func theSyncplayGatewayIsASetting() async throws {
        let number = try Self.file(#"{"syncplay": 8999}"#)
        let text = try Self.file(#"{"syncplay": "127.0.0.1:8998"}"#)
        defer {
            try? FileManager.default.removeItem(atPath: number)
            try? FileManager.default.removeItem(atPath: text)
        }
        #expect(try await ServiceSettings.resolve(options: [:], environment: [:], configFile: nil).syncplay == nil)
        #expect(try await ServiceSettings.resolve(options: [:], environment: [:], configFile: number).syncplay == "8999")
        #expect(try await ServiceSettings.resolve(options: [:], environment: [:], configFile: text).syncplay == "127.0.0.1:8998")
        #expect(try await ServiceSettings.resolve(options: [:], environment: ["TANDEM_SYNCPLAY": "9000"], configFile: number).syncplay == "9000")
        #expect(try await ServiceSettings.resolve(options: ["syncplay": "[::1]:9001"], environment: ["TANDEM_SYNCPLAY": "9000"],
                                                  configFile: number).syncplay == "[::1]:9001")
    }
}
