/// mpv's `--video-sync`: what places the pictures.
public enum VideoSync: String, Sendable, CaseIterable {
    /// By the clock (what is heard): each picture handed over the window's drawing delay before its
    /// instant. mpv's default.
    case audio
    /// On the display's refreshes, when the window learns them (vsync that paces its presents): each
    /// picture aimed at the refresh nearest its instant, repeated or dropped as the two rates meet.
    /// Without such a display, as `audio`. Not the default: a display whose swaps report a refresh
    /// they do not wait for (Xorg's dummy driver does so) shows pictures up to a quarter refresh early.
    case displayVdrop = "display-vdrop"
}
