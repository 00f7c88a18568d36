#ifndef TANDEM_CLIBASS_SHIM_H
#define TANDEM_CLIBASS_SHIM_H
// libass (Debian's libass-dev, 0.17): ASS/SSA subtitle rendering.
#include <ass/ass.h>
#include <stdarg.h>
#include <stdio.h>

/// libass logs font matching at every level to stderr by default: keep only its errors (level ≤ 1).
static inline void tandem_ass_quiet_messages(int level, const char *fmt, va_list args, void *data) {
    (void)data;
    if (level <= 1) {
        fputs("libass: ", stderr);
        vfprintf(stderr, fmt, args);
        fputc('\n', stderr);
    }
}
/// Installs ``tandem_ass_quiet_messages`` (a va_list callback Swift cannot pass itself).
static inline void tandem_ass_set_quiet_messages(ASS_Library *library) {
    ass_set_message_cb(library, tandem_ass_quiet_messages, NULL);
}
#endif
