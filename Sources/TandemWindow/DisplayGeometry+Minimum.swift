extension DisplayGeometry.Size {
    /// Windows narrower than this are scaled up (aspect kept): overlay text needs the room, and a
    /// 160-pixel story or test clip is hard to see. Larger pictures keep their own size.
    public static let minimumWindowWidth = 640

    /// This size scaled up (aspect kept) so that the width is at least `minimumWidth`.
    public func scaledUp(toWidth minimumWidth: Int = minimumWindowWidth) -> DisplayGeometry.Size {
        guard width > 0, height > 0, width < minimumWidth else { return self }
        return DisplayGeometry.Size(width: minimumWidth, height: Int((Double(height) * Double(minimumWidth) / Double(width)).rounded()))
    }
}
