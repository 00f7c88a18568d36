// The page's controls and keys: each sends a command; the party decides when (and whether) it happens.
// What the host allows is said on the controls themselves (disabled, with why).

import { $, toast } from "./ui.js";

/** Seeks by keys, as mpv's: arrows 5 s, up and down 60 s. */
export const SEEK_SMALL = 5, SEEK_LARGE = 60;
/** Speed keys step by 10 %, within the protocol's 0.25–4. */
export const RATE_STEP = 1.1;

export class Controls {
  /** `party`: { send(message), welcome() → the welcome or null }; `sync`: VideoSync; `elements`: the media
   * elements (the <video>, and the <audio> that plays an item's separate sound), muted together. */
  constructor(party, sync, elements) {
    this.party = party;
    this.sync = sync;
    this.elements = elements;
    this.commandId = 0;
    this.install();
  }

  command(action, value) {
    this.commandId += 1;
    const message = { type: "command", id: this.commandId, action };
    if (value !== undefined) message.value = value;
    this.party.send(message);
  }

  mayControl() {
    const welcome = this.party.welcome();
    return welcome && (welcome.config.control === "everyone" || welcome.you.role === "host");
  }

  /** Shows what the party allows and where it is (the play button's word, the speed). */
  update() {
    const allowed = this.mayControl();
    for (const id of ["play", "seek", "rate", "items"]) {
      $(id).disabled = !allowed;
      $(id).title = allowed ? $(id).title.replace(/ — .*$/, "") : "only the host controls this party";
    }
    const t = this.sync.timeline;
    $("play").textContent = t?.playing ? "Pause" : "Play";
    if (t && document.activeElement !== $("rate")) $("rate").value = String(t.rate);
  }

  togglePlay() { if (this.sync.timeline) this.command(this.sync.timeline.playing ? "pause" : "play"); }
  seekBy(seconds) { const t = this.sync.target(); if (t !== null) this.command("seek", Math.max(0, t + seconds)); }
  rateBy(factor) {
    if (this.sync.timeline) this.command("rate", Math.min(4, Math.max(0.25, Math.round(this.sync.timeline.rate * factor * 100) / 100)));
  }

  install() {
    const elements = this.elements;
    $("play").addEventListener("click", () => this.togglePlay());
    $("seek").addEventListener("change", () => this.command("seek", Number($("seek").value)));
    $("rate").addEventListener("change", () => this.command("rate", Number($("rate").value)));
    $("items").addEventListener("change", () => this.command("item", Number($("items").value)));
    $("mute").addEventListener("click", () => {
      const muted = !elements[0].muted;
      for (const element of elements) element.muted = muted;
      $("mute").textContent = muted ? "Unmute" : "Mute";
    });
    $("fullscreen").addEventListener("click", () => (document.fullscreenElement ? document.exitFullscreen() : $("screen").requestFullscreen()));
    // mpv's keys, where they mean the same.
    document.addEventListener("keydown", (event) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement || !this.party.welcome()) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const keys = {
        " ": () => this.togglePlay(), p: () => this.togglePlay(),
        ArrowLeft: () => this.seekBy(-SEEK_SMALL), ArrowRight: () => this.seekBy(SEEK_SMALL),
        ArrowDown: () => this.seekBy(-SEEK_LARGE), ArrowUp: () => this.seekBy(SEEK_LARGE),
        "[": () => this.rateBy(1 / RATE_STEP), "]": () => this.rateBy(RATE_STEP),
        Backspace: () => this.command("rate", 1), m: () => $("mute").click(), f: () => $("fullscreen").click(),
      };
      const action = keys[event.key];
      if (!action) return;
      event.preventDefault();
      if (["m", "f"].includes(event.key) || this.mayControl()) action();
      else toast("only the host controls this party");
    });
  }
}
