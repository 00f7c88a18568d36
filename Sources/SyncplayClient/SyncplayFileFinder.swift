import Foundation
import SyncplayKit

/// Finds the room's file among local folders by the name others announced: the same name, or
/// one Syncplay would call the same (separators ignored, or its hash when names are hashed).
public enum SyncplayFileFinder {
    /// Folders are searched this deep; media libraries nest a little, not without end.
    static let maxDepth = 3

    public static func find(_ announced: String, in folders: [String]) -> String? {
        // A playlist may carry another user's full path: only its file name means anything here.
        let announced = announced.contains("://") ? announced : (announced as NSString).lastPathComponent
        guard !announced.isEmpty else { return nil }
        let fm = FileManager.default
        for folder in folders {
            let direct = (folder as NSString).appendingPathComponent(announced)
            if fm.fileExists(atPath: direct) { return direct }
        }
        for folder in folders {
            if let found = search(announced, in: URL(fileURLWithPath: folder), depth: 0) { return found }
        }
        return nil
    }

    private static func search(_ announced: String, in folder: URL, depth: Int) -> String? {
        guard depth <= maxDepth,
              let entries = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey]) else { return nil }
        var subfolders: [URL] = []
        for entry in entries.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
            if (try? entry.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
                subfolders.append(entry)
            } else if SyncplayPrivacy.sameFilename(entry.lastPathComponent, announced) {
                return entry.path
            }
        }
        for subfolder in subfolders {
            if let found = search(announced, in: subfolder, depth: depth + 1) { return found }
        }
        return nil
    }
}
