#ifndef TANDEM_CALSA_SHIM_H
#define TANDEM_CALSA_SHIM_H
// alsa-lib's PCM API, for the ALSA sound output (`--ao=alsa`), which asks the driver for its delay.
#include <alsa/asoundlib.h>

static void tandem_alsa_quiet_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/// alsa-lib prints its errors on stderr ("ALSA lib pcm.c:… Unknown PCM"); the output reports each
/// failure itself, once, with the device's name, so the library is kept quiet (Swift cannot write
/// the variadic handler).
static inline void tandem_alsa_quiet(void) { snd_lib_error_set_handler(tandem_alsa_quiet_handler); }
#endif
