#ifndef TANDEM_CFFMPEG_SHIM_H
#define TANDEM_CFFMPEG_SHIM_H
// What Swift cannot import from FFmpeg 5.1's headers (function-like and compound macros)
// wrapped as static inline functions.
#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/md5.h>
#include <libavutil/display.h>
#include <libavutil/channel_layout.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>

static inline int tandem_averror(int e) { return AVERROR(e); }
static inline int tandem_averror_eof(void) { return AVERROR_EOF; }
static inline int tandem_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int tandem_averror_exit(void) { return AVERROR_EXIT; }
static inline int tandem_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int tandem_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
/// libavformat's answers for HTTP error statuses (FFERRTAG macros): 400, 401, 403, 404, any
/// other 4xx, any 5xx.
static inline int tandem_averror_http_bad_request(void) { return AVERROR_HTTP_BAD_REQUEST; }
static inline int tandem_averror_http_unauthorized(void) { return AVERROR_HTTP_UNAUTHORIZED; }
static inline int tandem_averror_http_forbidden(void) { return AVERROR_HTTP_FORBIDDEN; }
static inline int tandem_averror_http_not_found(void) { return AVERROR_HTTP_NOT_FOUND; }
static inline int tandem_averror_http_other_4xx(void) { return AVERROR_HTTP_OTHER_4XX; }
static inline int tandem_averror_http_server_error(void) { return AVERROR_HTTP_SERVER_ERROR; }
static inline int64_t tandem_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational tandem_time_base_q(void) { return AV_TIME_BASE_Q; }

/// The "best effort" timestamp ffmpeg itself uses for a decoded frame.
static inline int64_t tandem_frame_best_effort_pts(const AVFrame *f) { return f->best_effort_timestamp; }

/// Interrupt callback trampoline: the opaque is a pointer to an atomic-ish int flag owned by Swift.
static inline int tandem_interrupt_cb(void *opaque) {
    return opaque ? __atomic_load_n((volatile int *)opaque, __ATOMIC_ACQUIRE) : 0;
}
static inline void tandem_set_interrupt(AVFormatContext *ctx, int *flag) {
    ctx->interrupt_callback.callback = tandem_interrupt_cb;
    ctx->interrupt_callback.opaque = flag;
}
static inline void tandem_store_flag(int *flag, int value) { __atomic_store_n(flag, value, __ATOMIC_RELEASE); }

/// Display-matrix rotation of a stream in degrees (0 when none), as ffmpeg's autorotate reads it.
static inline double tandem_stream_rotation(const AVStream *st) {
    const uint8_t *m = av_stream_get_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, NULL);
    return m ? av_display_rotation_get((const int32_t *)m) : 0.0;
}

#endif
