import PartyCluster
import Testing

@Suite struct ClusterDatabaseURLTests {
    @Test func parsesEveryPart() throws {
        let url = try ClusterDatabaseURL(parsing: "postgres://tandem:s3cr%40t@db.example:6543/parties")
        #expect(url == ClusterDatabaseURL(user: "tandem", password: "s3cr@t", host: "db.example", port: 6543, database: "parties"))
        #expect(url.endpoint == "db.example:6543")
    }

    @Test func defaultsAndVariants() throws {
        let plain = try ClusterDatabaseURL(parsing: "postgresql://me@localhost/db")
        #expect(plain.password == nil && plain.port == 5432 && plain.tls == .prefer)
        let v6 = try ClusterDatabaseURL(parsing: "postgres://me@[::1]:5433/db?sslmode=disable")
        #expect(v6.host == "::1" && v6.port == 5433 && v6.tls == .disable && v6.endpoint == "[::1]:5433")
        // An unencoded @ in the password: the userinfo ends at the last one.
        #expect(try ClusterDatabaseURL(parsing: "postgres://me:p@ss@h/db").password == "p@ss")
    }

    @Test(arguments: [
        ("mysql://u@h/db", ClusterDatabaseURL.ParseError.scheme("mysql")),
        ("u:pw@h/db", .missingScheme),
        ("POSTGRES://u@h/db?password=pw", .badOption("password")),
        ("postgres://h/db", .missingUser),
        ("postgres://:pw@h/db", .missingUser),
        ("postgres://u@/db", .missingHost),
        ("postgres://u@h:0/db", .badPort("0")),
        ("postgres://u@h:99999/db", .badPort("99999")),
        ("postgres://u@h:54x/db", .badPort("54x")),
        ("postgres://u@h", .missingDatabase),
        ("postgres://u@h/", .missingDatabase),
        ("postgres://u@h/a/b", .badDatabase("a/b")),
        ("postgres://u%zz@h/db", .badEncoding(part: "user name")),
        ("postgres://u@h/db?sslmode=maybe", .badOption("sslmode=maybe")),
    ])
    func refusesBadURLs(text: String, expected: ClusterDatabaseURL.ParseError) {
        #expect(throws: expected) { try ClusterDatabaseURL(parsing: text) }
    }

    @Test func neverEchoesThePassword() throws {
        let url = try ClusterDatabaseURL(parsing: "postgres://tandem:hunter2@h/db")
        #expect(!url.description.contains("hunter2"))
        #expect(url.description == "postgres://tandem:***@h:5432/db")
        for bad in ["postgres://u:hunter2@h:bad/db", "postgres://u:hunter2%zz@h/db", "postgres://u:hunter2@h",
                    "postgres://u:hunter2@h/db?password=hunter2", "u:hunter2@h/db"] {
            do {
                _ = try ClusterDatabaseURL(parsing: bad)
                Issue.record("\(bad) parsed")
            } catch {
                #expect(!error.description.contains("hunter2"), "\(error.description)")
            }
        }
    }
}
