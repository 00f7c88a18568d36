#ifndef TANDEM_CSDL2_SHIM_H
#define TANDEM_CSDL2_SHIM_H
// SDL2 and SDL2_ttf for the window. Macros Swift cannot import, as functions.
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>

static inline int tandem_sdl_windowpos_centered(void) { return SDL_WINDOWPOS_CENTERED; }
static inline int tandem_sdl_windowpos_undefined(void) { return SDL_WINDOWPOS_UNDEFINED; }
static inline Uint32 tandem_sdl_audio_f32(void) { return AUDIO_F32SYS; }
static inline Uint32 tandem_sdl_audio_s16(void) { return AUDIO_S16SYS; }

#endif
