import Foundation

/// The bundled clips in assets/.
enum TestAssets {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func path(_ name: String) -> String { root.appendingPathComponent("assets").appendingPathComponent(name).path }
}
