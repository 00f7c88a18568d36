#!/usr/bin/env bash
# Issue #24 part 5: what party members are heard and seen to do, measured outside the players, from a
# private PulseAudio server's recording and from X screen grabs (not from the players' own clocks).
#
#   heard    A party on loopback: a headless host and two members in SDL windows under Xvfb. Member A's
#            sound goes to sink `a`, B's to `b`: two mono remap sinks on one stereo null sink `rec`
#            (a → front-left, b → front-right), so one recording of rec.monitor holds both on one clock.
#            The clip's sound is pink noise; the left and right channels are cross-correlated in 0.5 s
#            windows (FFT, peak refined by a parabola); silent (paused) windows are skipped. The host is
#            driven over its mpv IPC socket through play, pause, resume, seeks and rate changes.
#            Prints p50/p95/max of |lag| overall, in steady play and in the 4 s around each command,
#            what the members' own --json status said meanwhile, and each member stream's underruns
#            from the sound server's debug log.
#   seen     The same party, the two windows moved side by side on one Xvfb screen and grabbed together
#            (`ffmpeg -f x11grab -framerate 61`, the middle third of both: see GRAB_FPS); the clip's frames carry their
#            number as a bar code (16 cells, the number's bits over their complement). Prints the frame
#            difference A − B once settled (3 s after a command): mean, max, share ≥ 2 frames.
#   lipsync  One `tandem play` (window, sound through PulseAudio) and one `mpv --ao=pulse` on a clip with
#            a white flash and a 1 kHz click each second; the middle of the window (x11grab at 250 fps)
#            and the sound (rec.monitor) captured by ONE ffmpeg, so both are on its wall-clock timeline.
#            Prints audio − video per flash, with the default output and with PULSE_LATENCY_MSEC=150 and 160,
#            mpv given the same 95 ms queue as the first (PulseAudio's null sink hears a stream late when
#            its queue is not a whole number of the sink's 50 ms periods, whatever the player: BENCHMARKS.md).
#   browser  Heard apart as `heard`, but member A is a native `tandem join --headless --ao=pulse` and member
#            B a browser guest: Debian's Chromium, headless, joining the party's browser link
#            (Benchmarks/browser_guest.py over chromedriver), its sound on sink b. Also prints the page's
#            own measured error while playing.
#   browser-seen  Seen apart as `seen`, member A a native window and member B the browser guest, Chromium in
#            a window of its own (not headless) on the same Xvfb screen: A's window is sized to the page's
#            picture and put level with it on its left, so one grab holds both codes. Prints the frame
#            difference A − B as `seen`, and the page's own error.
#   live     Heard apart on a live stream: the clip looped by ffmpeg as a live HLS stream (2 s segments, a
#            window of ten) on loopback; member A joins at once, member B LIVE_JOIN s later with its party
#            connection through `tandem bench link` (LINK_MS ± JITTER_MS each way). Prints the lags as
#            `heard`, with B's join as a step: how soon after joining B is heard in sync, and p95 after.
#            Seen too: once B's window is up, both windows side by side grabbed at GRAB_FPS, the stream's
#            own frames (the clip's code) compared as in `seen`.
#   sanity   The method's own error: a WAV whose right channel is the left delayed by 1.2345 ms, played
#            into `rec` (must read +1.2345); one player's sound on both channels through the two remap
#            sinks (a combine sink over a and b; must read 0), for tandem and mpv; mpv --audio-delay=0.1
#            against plain mpv in the lip-sync capture (must read +100 ms).
#
# Usage: Benchmarks/heard-seen.sh [heard] [seen] [lipsync] [browser] [browser-seen] [live] [sanity]   (default: heard seen lipsync)
#   TANDEM=path       the tandem binary (default: swift build -c release)
#   MEMBER_OPTS="…"   extra options for both members and for `tandem play` (e.g. "--ao=pulse")
#   A_ENV="V=x …", B_ENV="V=x …"   environment of member A / B only (e.g. B_ENV="PULSE_LATENCY_MSEC=150")
#   A_OPTS="…", B_OPTS="…"         options of member A / B only, after MEMBER_OPTS (e.g. B_OPTS=--ao=sdl)
#   HEARD_SCRIPT, SEEN_SCRIPT      the host's commands, as `tandem host --script` (seconds after both
#                     windows are up and SETTLE=3 s more; defaults below), sent over its IPC socket
#   LIP_CASES="tandem mpv tandem:PULSE_LATENCY_MSEC=150 mpv:--pulse-buffer=95 tandem:PULSE_LATENCY_MSEC=160"
#                     each PLAYER[:ITEM[,ITEM…]]:
#                     tandem (`tandem play`), tandem-host (a party of one: its clock starts on an instant), mpv;
#                     an ITEM is VAR=x (its environment) or --option=x (one more option of the player, e.g.
#                     mpv:--pulse-buffer=95: mpv's own sound-server queue)
#   LIP_COMPANION=MS  in lipsync, another client (pacat, silence into sink b) keeping the sound server's
#                     latency at MS: the sink's latency is then not set by the player under test
#   MPV_OPTS="…"      extra mpv options in lipsync/sanity;  KEEP=DIR  keep the captures and per-window tables
#   CACHE=DIR         where the clips are made once (default bench-out/heard-seen)
#   GRAB_FPS          the side-by-side grabs' rate (seen, browser-seen, live; default 61): off the clip's 60 so
#                     that the grab instants sweep every phase of its frames each second. At 60 the figures
#                     depend on where the grab's fixed phase falls against the windows' updates (mean |A−B|
#                     0.05 in one run, 0.31 in the next, for the same build): 61 measures their average.
#   X_SERVER=dummy    Xorg with its dummy driver instead of Xvfb: its Present extension paces the windows'
#                     swaps on a fake vblank (about 60 Hz), so a window learns a refresh grid and places its
#                     pictures on it (display sync); Xvfb paces nothing and gives SDL no refresh rate
#   SDL_AUDIODRIVER   default pulseaudio;  PULSE_LOG_LEVEL  the sound server's (default debug: underruns)
# Run it with nothing else on the machine for figures; say so when something else ran.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
steps=${*:-heard seen lipsync}
HEARD_SCRIPT=${HEARD_SCRIPT:-"play@1,pause@9,play@12,seek:30@16,seek:8@22,rate:1.25@27,rate:1@33,pause@39,play@41,end@46"}
SEEN_SCRIPT=${SEEN_SCRIPT:-"play@1,pause@16,play@18,seek:35@22,end@37"}
LIP_CASES=${LIP_CASES:-"tandem mpv tandem:PULSE_LATENCY_MSEC=150 mpv:--pulse-buffer=95 tandem:PULSE_LATENCY_MSEC=160"}
GRAB_FPS=${GRAB_FPS:-61}
X_SERVER=${X_SERVER:-xvfb}
SETTLE=${SETTLE:-3}   # seconds the members get after both windows are up, before the first command
LIVE_SCRIPT=${LIVE_SCRIPT:-"play@1,pause@22,play@25,end@40"}  # the live step's host commands
LIVE_JOIN=${LIVE_JOIN:-8}    # seconds after the live step's script starts that B joins (the issue's late joiner)
LINK_MS=${LINK_MS:-50}       # B's party connection: one-way delay each way (tandem bench link) …
JITTER_MS=${JITTER_MS:-20}   # … ± this, uniform per chunk, never reordering

scripts/install-deps.sh pulseaudio pulseaudio-utils libasound2-plugins mpv xdotool x11-utils chromium chromium-driver \
    $([ "$X_SERVER" != dummy ] || echo xserver-xorg-core xserver-xorg-video-dummy) >&2
if [ -z "${TANDEM:-}" ]; then swift build -c release --product tandem >&2; fi
tandem=$(realpath "${TANDEM:-$(swift build -c release --show-bin-path)/tandem}")
py=(python3 "$root/Benchmarks/heard_seen.py")

# The steps and what they share, one file each in Benchmarks/heard-seen/ (sourced: one shell, one
# set of traps, processes and work folder).
for part in media processes heard seen lipsync browser live sanity; do
    # shellcheck source=/dev/null
    source "$root/Benchmarks/heard-seen/$part.sh"
done

for step in $steps; do
    case $step in
        heard|seen|lipsync|browser|live|sanity) "$step"; echo "load after $step: $(cut -d' ' -f1-3 /proc/loadavg)" ;;
        browser-seen) browser_seen; echo "load after $step: $(cut -d' ' -f1-3 /proc/loadavg)" ;;
        *) echo "unknown step $step (heard, seen, lipsync, browser, browser-seen, live, sanity)" >&2; exit 2 ;;
    esac
    echo
done
