// The stream connection in its JSON form (docs/stream-protocol.md, sections 3.1 and 6): one text WebSocket
// message per stream message. Reconnects on close with exponential backoff, numbers the commands it sends and
// hands each ACK back with the command it answers.
//
// STATEs are conflated here too: a STATE's text is kept, and only the newest is parsed and handed on, in a task
// queued behind the messages already received. A page slower than the stream (a 200-sphere pile drawn in software,
// 2 frames a second) used to parse every 26 KB STATE in turn: it fell tens of seconds behind while showing
// "connected", and a click on Emergency stop waited behind that backlog. The server writes "type" first, so a
// STATE is known by its first bytes without parsing it.
//
// Skipping is not enough when the page cannot even read the socket at the stream's pace: the STATEs then wait in
// the browser's receive buffer (1.9 MB measured, 2–8 s of lag). So the page also asks for the rate it can handle:
// every RATE_WINDOW_MS, if it handled fewer than half the rate it asked for, it SUBSCRIBEs to the rate it handled
// (at least MIN_RATE_HZ); after KEEPING_UP_WINDOWS windows in a row of handling nine tenths of the rate or more, it
// raises the rate by a quarter (at least 1), up to the rate it opened with. (Judging by the STATEs received instead
// never fired: a page behind its socket receives only what it gets round to reading, about as many as it handles.
// Doubling back after one good window overshot: a pile's page handling 4 a second was raised to 8 and queued 1.3 s.)

const FIRST_RETRY_MS = 500;
const STATE_PREFIX = '{"type":"STATE"';
const RATE_WINDOW_MS = 2000;
const MIN_RATE_HZ = 2;
const KEEPING_UP_WINDOWS = 3;
const MAX_RETRY_MS = 8000;

export class StreamConnection {
  /**
   * @param url      ws:// or wss:// URL of /ws with format=json
   * @param handlers onMessage(msg), onAck(ack, command), onLost(commandId, command) for a command whose
   *                 connection closed before its ACK, onOpen(), onClose(retryMs)
   */
  constructor(url, handlers, rateHz = 60) {
    this.url = url;
    this.maxRateHz = rateHz;
    this.rateHz = rateHz;
    this.windowStartMs = 0;
    this.windowReceived = 0;
    this.windowHandled = 0;
    this.windowsKeepingUp = 0;
    this.handlers = handlers;
    this.socket = null;
    this.retryMs = FIRST_RETRY_MS;
    this.nextCommandId = 1;
    this.pending = new Map();
    this.latestStateText = null;
    this.statesSkipped = 0;
  }

  start() {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      // A new session streams at the URL's rate.
      this.rateHz = this.maxRateHz;
      this.windowStartMs = performance.now();
      this.windowReceived = 0;
      this.windowHandled = 0;
      this.windowsKeepingUp = 0;
      this.handlers.onOpen();
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = () => {
      this.socket = null;
      this.latestStateText = null;
      // Commands in flight on a closed connection are never answered: say so, then forget them.
      for (const [id, command] of this.pending) {
        this.handlers.onLost(id, command);
      }
      this.pending.clear();
      const wait = this.retryMs;
      this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
      this.handlers.onClose(wait);
      setTimeout(() => this.start(), wait);
    };
  }

  get open() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  receive(text) {
    if (text.startsWith(STATE_PREFIX)) {
      this.windowReceived++;
      if (this.latestStateText !== null) {
        this.statesSkipped++;
      } else {
        setTimeout(() => this.deliverLatestState(), 0);
      }
      this.latestStateText = text;
      return;
    }
    this.parseAndDeliver(text);
  }

  /** The newest STATE received, parsed once, after every message that arrived before the task ran. */
  deliverLatestState() {
    const text = this.latestStateText;
    this.latestStateText = null;
    if (text !== null) {
      this.windowHandled++;
      this.parseAndDeliver(text);
      this.adaptRate();
    }
  }

  /** Asks for the rate of STATEs this page handles (see the top of this file); `nowMs` for tests. */
  adaptRate(nowMs = performance.now()) {
    const elapsedMs = nowMs - this.windowStartMs;
    if (elapsedMs < RATE_WINDOW_MS) {
      return;
    }
    const handledHz = this.windowHandled * 1000 / elapsedMs;
    let rateHz = this.rateHz;
    this.windowsKeepingUp = handledHz >= 0.9 * this.rateHz ? this.windowsKeepingUp + 1 : 0;
    if (handledHz < 0.5 * this.rateHz) {
      rateHz = Math.max(MIN_RATE_HZ, Math.min(this.rateHz, Math.floor(handledHz)));
    } else if (this.windowsKeepingUp >= KEEPING_UP_WINDOWS && this.rateHz < this.maxRateHz) {
      rateHz = Math.min(this.maxRateHz, Math.max(this.rateHz + 1, Math.round(this.rateHz * 1.25)));
      this.windowsKeepingUp = 0;
    }
    this.windowStartMs = nowMs;
    this.windowReceived = 0;
    this.windowHandled = 0;
    if (rateHz !== this.rateHz && this.open) {
      this.rateHz = rateHz;
      this.socket.send(JSON.stringify({ type: 'SUBSCRIBE', rateHz }));
    }
  }

  parseAndDeliver(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch (e) {
      return;
    }
    if (msg.type === 'HELLO') {
      // A server that speaks to us resets the backoff; a handshake alone does not (a server that accepts and
      // drops at once would otherwise be hammered every 500 ms).
      this.retryMs = FIRST_RETRY_MS;
    }
    if (msg.type === 'ACK') {
      const command = this.pending.get(msg.commandId);
      this.pending.delete(msg.commandId);
      this.handlers.onAck(msg, command);
      return;
    }
    this.handlers.onMessage(msg);
  }

  /**
   * Sends a COMMAND; returns its id, or -1 when not connected. `args` are the command's top-level fields
   * (MOVE_HAND: x, y, z).
   */
  command(kind, token, args = {}) {
    if (!this.open) {
      return -1;
    }
    const id = this.nextCommandId;
    // commandId is a u32 on the wire.
    this.nextCommandId = id >= 0xffffffff ? 1 : id + 1;
    this.pending.set(id, { kind, args });
    this.socket.send(JSON.stringify({ type: 'COMMAND', commandId: id, authToken: token, command: kind, ...args }));
    return id;
  }
}
