#!/usr/bin/env python3
"""Analysis and driving for Benchmarks/heard-seen.sh (issue #24 part 5): what two party members are
heard and seen to do, measured from a sound server's recording and from screen grabs, not from the
players' own clocks. numpy only; reads captures through ffmpeg/ffprobe.

  heard_seen.py drive SOCKET SCRIPT LOG        host commands over mpv IPC at their times; logs wall instants
  heard_seen.py heard REC.nut COMMANDS [--tsv OUT]     left (member A) against right (member B), 0.5 s windows
  heard_seen.py seen GRAB.nut GEOMETRY COMMANDS [--tsv OUT]   two bar-coded windows in one grab
  heard_seen.py lipsync CAPTURE.nut [--label L]  flash (grab) against click (sound) in one capture
  heard_seen.py shifted-wav OUT SECONDS SHIFT_MS  pink-ish noise, right = left delayed by SHIFT_MS (sanity)
  heard_seen.py self-skew A.out B.out…          the members' own --json skew while playing, for contrast
  heard_seen.py underruns PULSE.log STARTED [COMMANDS]   each stream's underruns in the server's debug log

Percentiles are nearest rank, as everywhere in BENCHMARKS.md: sorted[ceil(p*n) - 1].
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from heardseen.drive import drive  # noqa: E402
from heardseen.heard import heard, self_skew, underruns  # noqa: E402
from heardseen.lipsync import lipsync, lipsync_header  # noqa: E402
from heardseen.sanity import shifted_wav  # noqa: E402
from heardseen.seen import seen  # noqa: E402


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    cmd, args = argv[0], argv[1:]
    tsv = None
    if "--tsv" in args:
        i = args.index("--tsv")
        tsv = args[i + 1]
        args = args[:i] + args[i + 2:]
    if cmd == "drive":
        drive(*args)
    elif cmd == "heard":
        heard(args[0], args[1] if len(args) > 1 and args[1] != "-" else None, tsv)
    elif cmd == "seen":
        seen(args[0], args[1], args[2] if len(args) > 2 and args[2] != "-" else None, tsv)
    elif cmd == "underruns":
        underruns(args[0], args[1], args[2] if len(args) > 2 else None)
    elif cmd == "self-skew":
        self_skew(args)
    elif cmd == "lipsync-header":
        lipsync_header()
    elif cmd == "lipsync":
        label = args[args.index("--label") + 1] if "--label" in args else ""
        lipsync(args[0], label)
    elif cmd == "shifted-wav":
        shifted_wav(args[0], float(args[1]), float(args[2]))
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
