// The party's timeline on a <video> element: seeks landed at their instant, commands at theirs, and
// small errors corrected in "episodes".
//
// Its decisions are correction.js's.
//
// What is measured is currentTime, the element's clock, which follows the sound being played out: a
// presented picture's media time (requestVideoFrameCallback) is quantised to its frame, and after a
// rate change it reads a whole frame off (a 10 fps clip flipped between +23 and −77 ms).

import { localNow } from "./clock.js";
import {
  SEEK_PERSISTENCE, SEEK_SPACING, SETTLE_SECONDS, MEASURE_WINDOW, MEASURE_INTERVAL,
  READY_ERROR, READY_READINGS, QUICK_CORRECTION, INITIAL_LANDING, LANDING_LEARNING,
  INITIAL_PREROLL, MAX_PREROLL, BUFFERING_AFTER, positionAt, clockProfile,
  RUN_STEP_LEARNING, EPISODE_THRESHOLD, HOLD_THRESHOLD, correction, median,
} from "./correction.js";

/** How early a timer for an instant (a start, a pause, a rate change) wakes before it: more than a
 * timer's usual lateness, little enough to wait out on the clock (the page does nothing else then). */
const TIMER_EARLY = 0.012;

export class VideoSync {
  /** `clock`: ClockSync; `events`: { state(), problem(text) }. */
  constructor(video, clock, events) {
    this.video = video;
    this.clock = clock;
    this.events = events;
    this.timeline = null;
    this.appliedEpoch = 0;
    this.serial = 0;            // a seek or command of an older serial never acts (as ffplay's)
    this.phase = "idle";        // idle → seeking → (waiting to start) → following; buffering
    this.errors = [];
    this.error = null;          // the current median error, seconds
    this.measureAfter = 0;      // local time before which measurements are dropped
    this.episodeUntil = 0;
    this.run = null;            // the last correction run, until its outcome is measured
    this.holding = false;       // measured in sync since the last command: only HOLD_THRESHOLD starts a run
    this.profile = clockProfile(globalThis.navigator?.userAgent ?? "");
    this.runSteps = { faster: this.profile.runStep, slower: this.profile.runStep, otherFaster: 0, otherSlower: 0 };
    this.lastSeek = -Infinity;
    this.farCount = 0;
    this.landing = INITIAL_LANDING;
    this.preroll = INITIAL_PREROLL;
    this.pendingStart = null;   // { local } of a scheduled play, to learn the landing from
    this.timer = null;
    this.dryFrom = null;
    this.buffering = false;
    this.stats = { episodes: 0, seeks: 0, frames: 0 };
    /** Recent measurements [local time, error ms, playbackRate], for the tests and benchmarks. */
    this.trace = [];
    this.watchFrames();
    video.addEventListener("waiting", () => this.dryCheck());
    video.addEventListener("playing", () => { this.dryFrom = null; if (this.buffering) this.recover(); });
  }

  /** Where the party is now, in media seconds (null before the clock has an estimate). */
  target(local = localNow()) {
    if (!this.timeline) return null;
    const party = this.clock.party(local);
    return party === null ? null : positionAt(this.timeline, party);
  }

  /** A new epoch of the party's timeline (`item`: whether the item changed, and its source was set). */
  apply(timeline, itemChanged) {
    const previous = this.timeline;
    if (previous && timeline.epoch <= previous.epoch && !itemChanged) return;  // stale: never undo a newer one
    this.timeline = timeline;
    const serial = ++this.serial;
    clearTimeout(this.timer);
    if (this.episodeUntil) { this.episodeUntil = 0; this.video.playbackRate = this.baseRate ?? timeline.rate; }
    this.run = null;
    if (this.clock.estimate === null) { this.phase = "idle"; return; }  // the clock's first estimate seeks
    if (!previous || itemChanged || timeline.jump || this.phase !== "following") return this.seek(serial);
    const startsAt = this.clock.local(timeline.partyTime);
    if (timeline.playing && !previous.playing) {
      // From the paused position at the instant: start that much earlier than the landing.
      this.atLocal(startsAt - this.landing, serial, () => this.start(startsAt));
    } else if (!timeline.playing && previous.playing) {
      this.atLocal(startsAt, serial, () => {
        this.video.pause();
        this.video.currentTime = timeline.position;  // the exact still picture everyone shows
        this.applied();
      });
    } else {
      this.atLocal(startsAt, serial, () => { this.setRate(timeline.rate); this.applied(); });
    }
  }

  /** Stops following (its element is emptied for another item): nothing scheduled acts any more. */
  stop() {
    this.serial += 1;
    clearTimeout(this.timer);
    this.timeline = null;
    this.phase = "idle";
    this.episodeUntil = 0;
    this.run = null;
    this.holding = false;
    this.pendingStart = null;
    this.buffering = false;
  }

  /** The clock got its first estimate: land on the party's moment. */
  clockReady() { if (this.timeline && this.phase === "idle") this.seek(++this.serial); }

  applied() {
    this.run = null;
    this.holding = false;
    this.error = null;
    this.appliedEpoch = this.timeline.epoch;
    this.phase = "following";
    this.errors = [];
    this.measureAfter = localNow() + SETTLE_SECONDS;
    this.events.state();
  }

  /** Runs `action` at local time `local` unless a newer serial came first: a timer wakes it a little
   * early (timers fire late by a few ms, more on a busy page) and it waits out the rest on the clock. */
  atLocal(local, serial, action) {
    const wait = Math.max(0, (local - localNow() - TIMER_EARLY) * 1000);
    this.timer = setTimeout(() => {
      if (serial !== this.serial) return;
      while (localNow() < local) { /* at most TIMER_EARLY */ }
      action();
    }, wait);
  }

  async seek(serial) {
    this.phase = "seeking";
    this.stats.seeks += 1;
    this.lastSeek = localNow();
    this.events.state();
    const timeline = this.timeline;
    const video = this.video;
    video.pause();
    this.setRate(timeline.rate);
    const startParty = timeline.playing ? Math.max(timeline.partyTime, this.clock.party(localNow()) + this.preroll) : null;
    const position = startParty === null ? timeline.position : positionAt(timeline, startParty);
    video.currentTime = Math.max(0, position);
    await this.landed(serial);
    if (serial !== this.serial) return;
    if (startParty === null) return this.applied();
    const startLocal = this.clock.local(startParty);
    if (startLocal - this.landing - localNow() < 0.02) {
      // The seek took longer than the preroll: try again further ahead.
      this.preroll = Math.min(this.preroll * 2, MAX_PREROLL);
      return this.seek(serial);
    }
    this.atLocal(startLocal - this.landing, serial, () => this.start(startLocal));
  }

  /** Resolves once the element has seeked and can play on (or its serial is stale). */
  landed(serial) {
    return new Promise((resolve) => {
      const check = () => {
        if (serial !== this.serial || (!this.video.seeking && this.video.readyState >= 3)) {
          this.video.removeEventListener("seeked", check);
          this.video.removeEventListener("canplay", check);
          this.video.removeEventListener("canplaythrough", check);
          clearInterval(poll);
          resolve();
        }
      };
      this.video.addEventListener("seeked", check);
      this.video.addEventListener("canplay", check);
      this.video.addEventListener("canplaythrough", check);
      const poll = setInterval(check, 50);
      check();
    });
  }

  start(startLocal) {
    this.pendingStart = { local: startLocal };
    const played = this.video.play();
    // A play() the page itself cut short (a pause or seek of a newer command, before it began) rejects
    // with AbortError: nothing to say. A refusal (NotAllowedError: no gesture yet) or a failure is said.
    played?.catch((error) => { if (error?.name !== "AbortError") this.events.problem(`the browser would not play: ${error.message}`); });
    this.applied();
  }

  setRate(rate) {
    this.baseRate = rate;
    this.episodeUntil = 0;
    this.run = null;
    this.video.playbackRate = rate;
  }

  /** Pictures presented, for the stats (requestVideoFrameCallback, where the browser has it). */
  watchFrames() {
    const video = this.video;
    if (!("requestVideoFrameCallback" in video)) return;  // an <audio> (an item's separate sound) has none
    const onFrame = () => {
      this.stats.frames += 1;
      video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
  }

  /** Called every MEASURE_INTERVAL: measures, and ends correction runs. */
  tick() {
    const now = localNow();
    if (this.episodeUntil && now >= this.episodeUntil) {
      this.episodeUntil = 0;
      if (this.run) this.run.seconds = now - this.run.started;
      this.video.playbackRate = this.baseRate;
      this.measureAfter = now + SETTLE_SECONDS;
      this.errors = [];
    }
    this.measure(this.video.currentTime, now);
  }

  /** One measurement: media time `media` presented at local time `at`. */
  measure(media, at) {
    if (this.phase !== "following" || !this.timeline?.playing || this.video.paused) return;
    const target = this.target(at);
    if (target === null) return;
    const error = media - target - this.profile.heardBehind + (this.timeline.rate === 1 ? 0 : this.profile.stretchedAhead);
    this.trace.push([Math.round(at * 1000) / 1000, Math.round(error * 1e5) / 100, this.video.playbackRate]);
    if (this.trace.length > 3000) this.trace.shift();
    if (at < this.measureAfter || this.episodeUntil) return;
    this.errors.push(error);
    if (this.errors.length > MEASURE_WINDOW) this.errors.shift();
    if (this.errors.length < MEASURE_WINDOW) {
      if (this.errors.length === READY_READINGS) {
        this.error = median(this.errors);  // a first figure, for the status: small corrections wait for the window
        if (Math.abs(this.error) >= QUICK_CORRECTION) return this.judge(at);
        this.events.state();
      }
      return;
    }
    this.error = median(this.errors);
    this.judge(at);
  }

  /** Acts on the current error: learns from a start or run just measured, then corrects. */
  judge(at) {
    this.events.measured?.(this.error);
    if (this.pendingStart) {
      // The first readings after a start say how late play() lands on this device: half of it is taken
      // into the learned landing (each start's own lands ±10 ms about it).
      this.landing = Math.min(Math.max(this.landing - LANDING_LEARNING * this.error, 0), 0.5);
      this.pendingStart = null;
    }
    if (this.run) {
      // What the last run did beyond its rate's share is this device's step.
      const { before, rate, seconds, direction } = this.run;
      const observed = this.error - before - (rate - this.timeline.rate) * seconds;
      const kind = this.stepKind(direction);
      this.runSteps[kind] += RUN_STEP_LEARNING * (Math.min(Math.max(observed, -0.1), 0.1) - this.runSteps[kind]);
      this.run = null;
    }
    const wasReady = this.isReady;
    const steps = { faster: this.runSteps[this.stepKind(1)], slower: this.runSteps[this.stepKind(-1)] };
    const decision = correction(this.error, this.timeline.rate, steps, this.holding ? HOLD_THRESHOLD : EPISODE_THRESHOLD);
    // A whole window in sync at 1×: from now until the next command, only a larger error starts a run.
    // (At another base rate the stretcher's own lead wanders more, and runs are what keep it in.)
    if (decision.kind === "none" && this.errors.length >= MEASURE_WINDOW && Math.abs(this.error) < EPISODE_THRESHOLD
        && this.timeline.rate === 1) this.holding = true;
    this.act(decision, at);
    if (this.isReady !== wasReady) this.events.state();
  }

  act(decision, now) {
    if (decision.kind === "seek") {
      this.farCount += 1;
      if (this.farCount >= SEEK_PERSISTENCE && now - this.lastSeek >= SEEK_SPACING) {
        this.farCount = 0;
        this.seek(++this.serial);
      }
      return;
    }
    this.farCount = 0;
    if (decision.kind !== "episode") return;
    // A hidden tab's timers fire once a second at most: a run could not be ended on time.
    if (globalThis.document?.hidden) return;
    this.stats.episodes += 1;
    this.holding = false;
    this.run = { before: this.error, rate: decision.rate, started: localNow(), seconds: decision.seconds, direction: decision.direction };
    this.video.playbackRate = decision.rate;
    this.episodeUntil = localNow() + decision.seconds;
    this.errors = [];
  }

  /** Which learned step a run in `direction` brings at the current base rate. */
  stepKind(direction) {
    const base = this.timeline.rate === 1 ? "" : "other";
    const way = direction > 0 ? "faster" : "slower";
    return base ? base + way[0].toUpperCase() + way.slice(1) : way;
  }

  get isReady() {
    if (this.phase !== "following" || this.appliedEpoch !== this.timeline?.epoch || this.buffering) return false;
    if (!this.timeline.playing) return true;
    return this.error !== null && Math.abs(this.error) < READY_ERROR;
  }

  /** The stream ran out of data: buffering if it stays out while it should play. */
  dryCheck() {
    if (!this.timeline?.playing || this.phase !== "following") return;
    const from = this.dryFrom = localNow();
    setTimeout(() => {
      if (this.dryFrom === from && this.video.readyState < 3) {
        this.buffering = true;
        this.events.state();
      }
    }, BUFFERING_AFTER * 1000);
  }

  recover() {
    this.buffering = false;
    this.seek(++this.serial);
  }

  /** The tab is shown again: a background tab's timers ran once a second at most, so what was measured
   * then is dropped and measuring starts afresh; a tab that fell far behind is re-seeked by the usual
   * rule (SEEK_THRESHOLD), one that kept up is not disturbed. */
  shown() {
    if (this.phase !== "following") return;
    this.errors = [];
    this.holding = false;
    this.measureAfter = localNow() + SETTLE_SECONDS;
  }
}
