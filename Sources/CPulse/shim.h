#ifndef TANDEM_CPULSE_SHIM_H
#define TANDEM_CPULSE_SHIM_H
// libpulse's asynchronous API (the threaded main loop), for the PulseAudio sound output. It also
// reaches PipeWire desktops through pipewire-pulse.
#include <pulse/pulseaudio.h>

/// Stream flags the output asks for, combined in C (Swift sees each flag as a distinct enum value).
static inline pa_stream_flags_t tandem_pa_playback_flags(void) {
    return (pa_stream_flags_t)(PA_STREAM_INTERPOLATE_TIMING | PA_STREAM_AUTO_TIMING_UPDATE |
                               PA_STREAM_ADJUST_LATENCY | PA_STREAM_START_CORKED);
}
#endif
