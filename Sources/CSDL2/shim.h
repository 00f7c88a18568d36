#ifndef TANDEM_CSDL2_SHIM_H
#define TANDEM_CSDL2_SHIM_H
// SDL2 and SDL2_ttf for the window. Macros Swift cannot import, as functions.
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>

static inline int tandem_sdl_windowpos_centered(void) { return SDL_WINDOWPOS_CENTERED; }
static inline int tandem_sdl_windowpos_undefined(void) { return SDL_WINDOWPOS_UNDEFINED; }
static inline Uint32 tandem_sdl_audio_f32(void) { return AUDIO_F32SYS; }
static inline Uint32 tandem_sdl_audio_s16(void) { return AUDIO_S16SYS; }

/// Queues a key press as if typed (for tests and scripted input): SDL_KEYDOWN with `sym` and `mod`.
static inline int tandem_sdl_push_key(SDL_Keycode sym, Uint16 mod, int repeat) {
    SDL_Event e;
    SDL_zero(e);
    e.type = SDL_KEYDOWN;
    e.key.timestamp = SDL_GetTicks();
    e.key.state = SDL_PRESSED;
    e.key.repeat = (Uint8)(repeat != 0);
    e.key.keysym.sym = sym;
    e.key.keysym.scancode = SDL_GetScancodeFromKey(sym);
    e.key.keysym.mod = mod;
    return SDL_PushEvent(&e);
}

/// Queues SDL_QUIT, as closing the last window does.
static inline int tandem_sdl_push_quit(void) {
    SDL_Event e;
    SDL_zero(e);
    e.type = SDL_QUIT;
    e.quit.timestamp = SDL_GetTicks();
    return SDL_PushEvent(&e);
}

#endif
