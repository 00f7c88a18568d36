// How the page decides: the thresholds and learned corrections of its sync, as pure functions of what
// it measured (unit-tested under Node, Tests/PartyWebTests/js). VideoSync (sync.js) applies them.
//
// Browsers are not native players: a change of playbackRate steps the sound by about −20 ms, and a
// play() or a seek lands 70–90 ms after it is asked for (measured in Chromium). So the page never
// nudges continuously as the native member does: it measures at the base rate, corrects an error with
// a short run at a slightly other rate whose length is computed, then waits for the player to settle
// before measuring again; and it learns how late its own play() lands.

/** Beyond this error (seconds) a correction run would take too long: re-seek instead… */
export const SEEK_THRESHOLD = 0.4;
/** …once it has held for this many measurements in a row, and at most once per SEEK_SPACING seconds. */
export const SEEK_PERSISTENCE = 3;
export const SEEK_SPACING = 3;
/** Errors under this (seconds) are left alone: about what a second of a browser's clock readings can be
 * trusted to (currentTime read every 50 ms wanders ±1.5 ms while the sound stays put). */
export const EPISODE_THRESHOLD = 0.005;
/** Once a full window at 1× has read the page in sync (under EPISODE_THRESHOLD), a new run waits for an error
 * this large, until the next command (mpv's and Syncplay's hysteresis). After a run Chromium's currentTime
 * wanders from its sound: in the heard benchmark the sound stayed put (3.3–3.6 ms behind) while the page
 * read its error rise from 2.4 to 5.5 ms over 3.5 s, and the run it then started put the sound 6.9 ms
 * off; in five runs every steady window heard 6 ms or more apart came from such a second run. A real
 * drift (a sound card's own clock, 100 ppm: 10 ms in 100 s) is still corrected, from here. */
export const HOLD_THRESHOLD = 0.010;
/** Chromium's currentTime runs ahead of its sound as heard out of PulseAudio by this much: measured by
 * Benchmarks/heard-seen.sh's `browser` step against a native member (6.5, 4, 5.5, 5.7 ms in four spans
 * of one run, 6 in another), so it is taken off every reading. Its clock already counts the output's
 * own delay: AudioContext.outputLatency (44 ms there) must not be taken off again. */
export const HEARD_BEHIND_CURRENT_TIME = 0.0057;
/** At a base rate other than 1 Chromium's time stretcher (WSOLA, 20 ms windows) is heard about this much
 * ahead of its currentTime. First taken as 21 ms (the page read +4 ms while it was heard 25 ms ahead);
 * with that, four release runs of the `browser` step still heard the page 3.7–9.8 ms (median 7.8) ahead
 * of the native member at 1.25×. The native member is not the one off: one `tandem play` at 1.25× is
 * heard where its own picture is, as at 1× (lip sync −3.1 ms against −4.9 ms; `heard-seen.sh lipsync`,
 * session 14), so the page's constant takes those 8 ms too. */
export const STRETCHED_HEARD_AHEAD = 0.029;
/** A correction run changes the rate by exactly this much, faster or slower, so that the step each
 * change of rate brings (below) is the same from one run to the next: learned apart for each direction. */
export const EPISODE_DELTA = 0.03;
/** After a run, a seek or a play, measurements wait this long (currentTime's steps settle). */
export const SETTLE_SECONDS = 0.3;
/** The error is the median of this many recent measurements (a second), one every MEASURE_INTERVAL seconds. */
export const MEASURE_WINDOW = 20;
export const MEASURE_INTERVAL = 0.05;
/** "In sync" for the party's lists: the status says ready once the error is under this, judged from the
 * first READY_READINGS of a window (a quarter second), not the whole second corrections wait for. */
export const READY_ERROR = 0.1;
export const READY_READINGS = 5;
/** An error this large in those first readings (a start or seek that landed off) is corrected at once:
 * a quarter second of readings is good to ±1.5 ms, so any error worth a run (EPISODE_THRESHOLD) is
 * trusted from there. At 10 ms, a start that landed 5–10 ms off waited the whole second of readings and
 * a run after it: the heard benchmark's windows within 2 s of a seek read p95 10.7–12.5 ms. */
export const QUICK_CORRECTION = EPISODE_THRESHOLD;
/** First guess of how late play() lands (measured 70–90 ms in Chromium), learned from then on. */
export const INITIAL_LANDING = 0.08;
/** How much of each start's landing error the learned landing takes on. */
export const LANDING_LEARNING = 0.5;
/** Preroll of a seek while playing: the first picture lands this far ahead, doubled when too short. */
export const INITIAL_PREROLL = 0.3;
export const MAX_PREROLL = 4;
/** A stream that stays out of data this long while it should play is buffering. */
export const BUFFERING_AFTER = 0.3;

/** Media position of `timeline` at party time `t`. */
export function positionAt(timeline, t) {
  if (!timeline.playing || t <= timeline.partyTime) return timeline.position;
  return timeline.position + (t - timeline.partyTime) * timeline.rate;
}

/**
 * What this page knows of a browser's media clock against its sound: measured for Chromium (the
 * constants above and below); another engine starts from nothing and learns its rate-change steps.
 */
export function clockProfile(userAgent) {
  if (/Chrom(e|ium)\//.test(userAgent)) {
    return { heardBehind: HEARD_BEHIND_CURRENT_TIME, stretchedAhead: STRETCHED_HEARD_AHEAD, runStep: INITIAL_RUN_STEP };
  }
  return { heardBehind: 0, stretchedAhead: 0, runStep: 0 };
}

/** Chromium steps its clock by about −20 ms whenever playbackRate leaves 1 (in either direction; its
 * time stretcher's window), and by +1…+8 ms on the way back: a correction run costs that much, learned
 * per device from each run's outcome, starting from Chromium's. From another base rate the stretcher
 * is already at work, so that step is learned apart, from 0. */
export const INITIAL_RUN_STEP = -0.02;
/** How much of each run's observed step the learned one takes on (an average over the last few). */
export const RUN_STEP_LEARNING = 0.5;
/** A run shorter than this is not worth its step's uncertainty. */
export const EPISODE_SHORTEST = 0.1;

/**
 * What to do about a measured error `error` (seconds, positive: ahead) at base rate `rate`, when a run
 * faster steps the clock by `steps.faster` seconds and one slower by `steps.slower`: nothing, a seek, or
 * a run at rate·(1 ± EPISODE_DELTA) for `seconds`. Errors under `threshold` are left alone (EPISODE_THRESHOLD,
 * or HOLD_THRESHOLD once in sync). A run moves the error by ±rate·δ·seconds plus its
 * step, so it may go the "wrong" way: 12 ms ahead with a −20 ms step is a run faster, not slower. Of the
 * two directions, the one that can land the error nearest zero soonest.
 */
export function correction(error, rate, steps = { faster: 0, slower: 0 }, threshold = EPISODE_THRESHOLD) {
  const size = Math.abs(error);
  if (size >= SEEK_THRESHOLD) return { kind: "seek" };
  if (size < threshold) return { kind: "none" };
  const speed = rate * EPISODE_DELTA;
  const options = [
    { direction: 1, needed: -error - steps.faster },   // a run faster must add `needed` (> 0)
    { direction: -1, needed: -error - steps.slower },  // a run slower must take it away (< 0)
  ].map((o) => {
    // Too little to need: the shortest run, off by at most speed·EPISODE_SHORTEST.
    const seconds = Math.max(o.needed * o.direction / speed, EPISODE_SHORTEST);
    return { ...o, seconds, residual: Math.abs(o.needed - o.direction * speed * seconds) };
  }).sort((a, b) => a.residual - b.residual || a.seconds - b.seconds);
  const best = options[0];
  if (best.residual >= size) return { kind: "none" };  // no run would make it better
  return { kind: "episode", rate: rate * (1 + best.direction * EPISODE_DELTA), seconds: best.seconds, direction: best.direction };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[sorted.length >> 1] : null;
}
