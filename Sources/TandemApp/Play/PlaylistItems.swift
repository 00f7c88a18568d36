import Foundation

/// The items of `tandem play A B C`: each argument as given, except a folder, which becomes its
/// media files in natural order (`ep2` before `ep10`, as mpv and file managers sort).
package enum PlaylistItems {
    /// File name extensions taken from a folder (mpv's video and audio lists, lower case);
    /// subtitles, pictures and anything else are left out.
    package static let mediaExtensions: Set<String> = [
        "3gp", "avi", "flv", "m2ts", "m4v", "mkv", "mov", "mp4", "mpeg", "mpg", "mts", "ogv", "ts", "webm", "wmv",
        "aac", "ac3", "flac", "m4a", "mka", "mp3", "oga", "ogg", "opus", "wav", "wma",
    ]

    /// A folder without media files.
    package struct EmptyFolder: Error, CustomStringConvertible {
        package let path: String
        package var description: String { "\(path): no media files in this folder" }
    }

    /// The arguments with folders replaced by their media files (not recursing into subfolders).
    package static func expand(_ arguments: [String]) throws(EmptyFolder) -> [String] {
        var items: [String] = []
        for argument in arguments {
            var isFolder: ObjCBool = false
            guard !argument.contains("://"), FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder),
                  isFolder.boolValue else {
                items.append(argument)
                continue
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
            let media = names.filter { name in
                var isSubfolder: ObjCBool = false
                let path = (argument as NSString).appendingPathComponent(name)
                return !name.hasPrefix(".") && mediaExtensions.contains((name as NSString).pathExtension.lowercased())
                    && FileManager.default.fileExists(atPath: path, isDirectory: &isSubfolder) && !isSubfolder.boolValue
            }
            guard !media.isEmpty else { throw EmptyFolder(path: argument) }
            items += media.sorted(by: naturalOrder).map { (argument as NSString).appendingPathComponent($0) }
        }
        return items
    }

    /// `a` sorts before `b`: runs of digits compare by value, other characters case-insensitively;
    /// names equal so compare by case, then by leading zeros, so the order is total.
    package static func naturalOrder(_ a: String, _ b: String) -> Bool {
        let left = chunks(a), right = chunks(b)
        if let loose = compare(left, right, exact: false) { return loose }
        return compare(left, right, exact: true) ?? false
    }

    /// true/false when the chunk lists differ (`exact`: by case and digits too), nil when equal.
    private static func compare(_ left: [Chunk], _ right: [Chunk], exact: Bool) -> Bool? {
        for (l, r) in zip(left, right) {
            switch (l, r) {
            case (.number(let x, let xs), .number(let y, let ys)):
                if x != y { return x < y }
                if exact, xs != ys { return xs < ys }
            case (.text(let x), .text(let y)):
                let (x, y) = exact ? (x, y) : (x.lowercased(), y.lowercased())
                if x != y { return x < y }
            case (.number, .text): return true
            case (.text, .number): return false
            }
        }
        return left.count == right.count ? nil : left.count < right.count
    }

    private enum Chunk: Equatable {
        case text(String)
        /// The value (digits beyond UInt64 saturate; such names still sort by their text) and the digits.
        case number(UInt64, String)
    }

    private static func chunks(_ name: String) -> [Chunk] {
        var result: [Chunk] = []
        var run = ""
        var digits = false
        func flush() {
            guard !run.isEmpty else { return }
            result.append(digits ? .number(UInt64(run) ?? .max, run) : .text(run))
            run = ""
        }
        for character in name {
            let isDigit = character.isASCII && character.isNumber
            if isDigit != digits { flush(); digits = isDigit }
            run.append(character)
        }
        flush()
        return result
    }
}
