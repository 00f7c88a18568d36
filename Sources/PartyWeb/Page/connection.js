// The page's connection to its party: a pure state machine (named events in, actions out, as the
// native member's MemberConnection), and the WebSocket that drives it.

/** The protocol this page speaks (docs/protocol.md). */
export const PROTOCOL_VERSION = 9;
/** Reconnecting: 0.1 s doubling to 5 s, for up to 60 s, as the native member does. */
export const RETRY_FIRST = 0.1;
export const RETRY_MAX = 5;
export const GIVE_UP_AFTER = 60;

/** Errors after which trying again cannot help: each ends the page's session with its line. */
const FINAL_ERRORS = {
  versionMismatch: (m) => `${m} — this page speaks protocol ${PROTOCOL_VERSION}; reload it, or ask the host to update Tandem`,
  wrongKey: (m) => `${m} — check that the link was copied whole (the part after # is the key)`,
  partyExists: (m) => m,
  badMessage: (m) => `the server refused a message of this page: ${m}`,
  tooBig: (m) => `the server refused a message of this page: ${m}`,
  notHello: (m) => `the server refused this page: ${m}`,
  flood: (m) => `the server dropped this page for sending too much: ${m}`,
};

export class ConnectionMachine {
  constructor({ party, key, name }) {
    this.party = party;
    this.key = key;
    this.name = name;
    this.phase = "idle";      // idle → connecting → seated ⇄ waiting → … → ended
    this.token = null;        // the seat, taken back on reconnecting
    this.lostAt = null;       // when the connection was last lost
    this.delay = RETRY_FIRST;
    this.endReason = null;
  }

  /** The user joined. */
  start() {
    this.phase = "connecting";
    return [{ kind: "connect" }];
  }

  /** The WebSocket opened. */
  opened() {
    if (this.phase !== "connecting") return [];
    const hello = { type: "hello", version: PROTOCOL_VERSION, party: this.party, key: this.key, name: this.name };
    if (this.token) hello.resume = this.token;
    return [{ kind: "send", message: hello }];
  }

  /** A message from the server. */
  message(msg, now) {
    switch (msg.type) {
      case "welcome":
        this.phase = "seated";
        this.token = msg.token;
        this.lostAt = null;
        this.delay = RETRY_FIRST;
        return [{ kind: "welcomed", welcome: msg }];
      case "partyEnded":
        return this.end(`the party ended: ${msg.reason}`);
      case "error":
        if (msg.code === "redirect" && msg.redirect) return [{ kind: "redirect", node: msg.redirect }];
        if (msg.code === "serverShutdown") return [{ kind: "notice", text: "the server is restarting; reconnecting…" }];
        if (msg.code === "unknownParty") {
          // A member that had a seat keeps trying: a restarted server learns the party again from its host.
          if (this.token && now - (this.lostAt ?? now) < GIVE_UP_AFTER) return [{ kind: "notice", text: "the party is not on the server yet; retrying…" }];
          return this.end(`there is no party "${this.party}" on this server: it ended, or the link is wrong`);
        }
        return this.end((FINAL_ERRORS[msg.code] ?? ((m) => m))(msg.message));
      default:
        return this.phase === "seated" ? [{ kind: "deliver", message: msg }] : [];
    }
  }

  /** The WebSocket closed (or never opened). */
  closed(now) {
    if (this.phase === "ended" || this.phase === "idle") return [];
    if (this.lostAt === null) this.lostAt = now;
    if (now - this.lostAt >= GIVE_UP_AFTER) {
      return this.end(`lost the server for ${GIVE_UP_AFTER} s; the party may have ended — reload the page to try again`);
    }
    const wasSeated = this.phase === "seated";
    this.phase = "waiting";
    const delay = this.delay;
    this.delay = Math.min(this.delay * 2, RETRY_MAX);
    return [...(wasSeated ? [{ kind: "lost" }] : []), { kind: "retry", after: delay }];
  }

  /** The retry timer fired. */
  retry() {
    if (this.phase !== "waiting") return [];
    this.phase = "connecting";
    return [{ kind: "connect" }];
  }

  /** The user left. */
  leave() {
    if (this.phase === "ended") return [];
    const actions = this.phase === "seated" ? [{ kind: "send", message: { type: "bye" } }] : [];
    return [...actions, ...this.end("you left the party")];
  }

  end(reason) {
    this.phase = "ended";
    this.endReason = reason;
    return [{ kind: "ended", reason }];
  }
}

/** Runs a ConnectionMachine over a real WebSocket. `handlers`: welcomed(welcome), message(msg),
 * lost(), ended(reason), notice(text), redirect(node). */
export class PartyConnection {
  constructor(machine, url, handlers) {
    this.machine = machine;
    this.url = url;
    this.handlers = handlers;
    this.socket = null;
    this.timer = null;
  }

  start() { this.run(this.machine.start()); }
  leave() { this.run(this.machine.leave()); }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN && this.machine.phase === "seated") {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  run(actions) {
    for (const action of actions) {
      switch (action.kind) {
        case "connect": this.connect(); break;
        case "send": if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(action.message)); break;
        case "retry": this.timer = setTimeout(() => this.run(this.machine.retry()), action.after * 1000); break;
        case "welcomed": this.handlers.welcomed(action.welcome); break;
        case "deliver": this.handlers.message(action.message); break;
        case "lost": this.handlers.lost(); break;
        case "notice": this.handlers.notice(action.text); break;
        case "redirect": this.handlers.redirect(action.node); break;
        case "ended":
          clearTimeout(this.timer);
          this.socket?.close();
          this.handlers.ended(action.reason);
          break;
      }
    }
  }

  connect() {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => { if (socket === this.socket) this.run(this.machine.opened()); };
    socket.onmessage = (event) => {
      if (socket !== this.socket || typeof event.data !== "string") return;
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      this.run(this.machine.message(msg, performance.now() / 1000));
    };
    socket.onclose = () => { if (socket === this.socket) this.run(this.machine.closed(performance.now() / 1000)); };
  }
}
