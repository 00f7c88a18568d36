import CFFmpeg

/// Owns a libavfilter graph `abuffer → atempo… → abuffersink` that changes speed while keeping pitch.
/// FFmpeg 5.1's atempo takes 0.5…100 per instance, so slower tempos chain instances.
public final class AudioTempoFilter {
    public let tempo: Double
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private var inputKey: (rate: Int32, format: Int32, layout: String)?
    private let output = Frame()

    public init(tempo: Double) { self.tempo = tempo }

    deinit { avfilter_graph_free(&graph) }

    /// Filter stages whose product is `tempo`, each within atempo's range.
    public static func stages(for tempo: Double) -> [Double] {
        var remaining = tempo
        var stages: [Double] = []
        while remaining < 0.5 { stages.append(0.5); remaining /= 0.5 }
        while remaining > 2.0 { stages.append(2.0); remaining /= 2.0 }
        stages.append(remaining)
        return stages
    }

    /// Media seconds of input that a fresh filter drops before its first output sample: atempo's
    /// first window would overlap what came before it, so its output starts half a window into the
    /// input (window: `sampleRate / 24` rounded up to a power of two, 2048 samples at 48 kHz, so
    /// 21.3 ms). Each chained stage drops half a window of its own input, which the stages before
    /// it have already sped up. Labelled from the frame's own position, everything a new tempo plays
    /// would be heard that much early (measured: 17–22 ms at 48 kHz, whatever the tempo).
    public static func skippedMedia(tempo: Double, sampleRate: Int) -> Double {
        guard tempo != 1, sampleRate > 0 else { return 0 }
        var window = max(sampleRate / 24, 1)
        let power = 1 << (Int.bitWidth - 1 - window.leadingZeroBitCount)
        if power < window { window = power * 2 }
        let half = Double(window / 2) / Double(sampleRate)
        var skipped = 0.0
        var scale = 1.0
        for stage in stages(for: tempo) {
            skipped += half * scale
            scale *= stage
        }
        return skipped
    }

    /// Pushes `frame` (or `nil` to drain) and hands every frame the filter has ready to `body`.
    /// A frame whose channels have no layout (PCM in Matroska or WAV often says only "2 channels") is
    /// given the default layout of its channel count first: atempo, as most filters, refuses an
    /// unknown layout, and would refuse every frame.
    public func process(_ frame: Frame?, _ body: (Frame) throws(FFmpegError) -> Void) throws(FFmpegError) {
        if let frame {
            let f = frame.pointer
            if f.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC, f.pointee.ch_layout.nb_channels > 0 {
                let channels = f.pointee.ch_layout.nb_channels
                av_channel_layout_uninit(&f.pointee.ch_layout)
                av_channel_layout_default(&f.pointee.ch_layout, channels)
            }
            try configure(for: frame)
        }
        guard graph != nil else { return }
        try check(av_buffersrc_add_frame_flags(source, frame?.pointer, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)),
                  "atempo input")
        while true {
            let code = av_buffersink_get_frame(sink, output.pointer)
            if code == FFmpegError.tryAgain || code == FFmpegError.endOfFile { return }
            try check(code, "atempo output")
            try body(output)
            output.unref()
        }
    }

    /// Drops buffered samples (after a seek).
    public func reset() {
        avfilter_graph_free(&graph)
        source = nil
        sink = nil
        inputKey = nil
    }

    private func configure(for frame: Frame) throws(FFmpegError) {
        let f = frame.pointer
        let layout = channelLayoutDescription(&f.pointee.ch_layout)
        if let key = inputKey, key.rate == f.pointee.sample_rate, key.format == f.pointee.format, key.layout == layout {
            return
        }
        reset()
        guard let g = avfilter_graph_alloc() else { fatalError("avfilter_graph_alloc: out of memory") }
        graph = g
        let formatName = av_get_sample_fmt_name(AVSampleFormat(rawValue: f.pointee.format)).map { String(cString: $0) } ?? "fltp"
        let args = "time_base=1/\(f.pointee.sample_rate):sample_rate=\(f.pointee.sample_rate):sample_fmt=\(formatName):channel_layout=\(layout)"
        try check(avfilter_graph_create_filter(&source, avfilter_get_by_name("abuffer"), "in", args, nil, g), "abuffer")
        try check(avfilter_graph_create_filter(&sink, avfilter_get_by_name("abuffersink"), "out", nil, nil, g), "abuffersink")
        var last = source
        for (i, stage) in Self.stages(for: tempo).enumerated() {
            var ctx: UnsafeMutablePointer<AVFilterContext>?
            try check(avfilter_graph_create_filter(&ctx, avfilter_get_by_name("atempo"), "tempo\(i)",
                                                   "tempo=\(stage)", nil, g), "atempo")
            try check(avfilter_link(last, 0, ctx, 0), "linking atempo")
            last = ctx
        }
        try check(avfilter_link(last, 0, sink, 0), "linking abuffersink")
        try check(avfilter_graph_config(g, nil), "configuring atempo")
        inputKey = (f.pointee.sample_rate, f.pointee.format, layout)
    }
}
