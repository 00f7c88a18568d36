import FFmpegKit

/// What the picture layer of a scene looks like: which sinks, at which generation, where, and which
/// posters. Equal states draw the same pixels, so the window skips rendering them again.
struct PictureState: Equatable {
    var size: DisplayGeometry.Size
    var primary: ObjectIdentifier?
    var primaryGeneration: UInt64
    var secondary: ObjectIdentifier?
    var secondaryGeneration: UInt64
    var slide: Double
    /// Posters compare by value; the same image compares by buffer identity, at no cost.
    var poster: RGBAImage?
    var secondaryPoster: RGBAImage?

    init(_ scene: WindowScene, size: DisplayGeometry.Size) {
        self.size = size
        primary = scene.primary.map(ObjectIdentifier.init)
        primaryGeneration = scene.primary?.generation ?? 0
        secondary = scene.secondary.map(ObjectIdentifier.init)
        secondaryGeneration = scene.secondary?.generation ?? 0
        slide = scene.slide
        poster = scene.poster
        secondaryPoster = scene.secondaryPoster
    }
}
