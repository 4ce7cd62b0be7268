/**
 * The proxy's client of the service: one keep-alive connection pool, every exchange bounded in time
 * and size, answers buffered whole.
 *
 * DESIGN.md "Security rules": "upstream time bounded". The whole exchange (connect, headers, body)
 * must finish within `timeoutMs`, else it is aborted and reported as a timeout (the proxy answers
 * 504); a refused or reset connection is reported as unreachable (502). Answers are small JSON
 * documents, so they are read whole (at most MAX_RESPONSE_BYTES) and relayed with a Content-Length.
 * The answers being read at once hold at most MAX_BUFFERED_BYTES together, whatever the transport
 * and its number of connections (a Pool of 64 could otherwise hold 256 MiB, an undici Agent without
 * a connection limit any amount): the exchange whose bytes would pass it is dropped. An answer
 * handed to a client that does not take it at once stays in memory until it does (the connection
 * holds the whole Buffer until its last byte is written), so it stays counted until the client's
 * response closes (`hold`): clients that stop reading hold at most the budget, not 4 MiB each
 * for as long as their connection lasts. And only while no exchange needs those bytes: one that
 * does first closes the connections of clients that have stopped reading (nothing taken for
 * STALLED_AFTER_MS), the one stopped longest first (`reclaim`), so that a few clients that never
 * read cannot keep every other large answer and every state change out, while a client taking its
 * answer slowly keeps it, and a state change's answer is not given up for a read. A dropped read is `busy` (the proxy answers 503 with Retry-After: not
 * done, send it again). A state change (any method but GET) cannot be told that once it was sent,
 * since the service may have carried it out: it is not sent while the budget lacks room for one
 * answer of MAX_RESPONSE_BYTES (`busy`, nothing sent), and one whose answer is dropped all the same
 * (reads took the room meanwhile) is `dropped` (the proxy answers 502, outcome unknown).
 *
 * What a failure says of a state change follows the same rule: once it may have reached the
 * service (on both transports: once it is written to a connected socket, undici's
 * `onRequestStart`, node's 'connect' or 'secureConnect', or a kept-alive socket), a timeout, a cut connection, an answer too large or
 * with a status the proxy does not relay all say it may have been carried out. Before that (a
 * refused connection, a timeout while queued) it was not sent, and the message says only what
 * failed. A read's messages say only what failed: it can be sent again.
 *
 * Transports with the same contract:
 *  - `'undici'` (the default): an undici Pool for the upstream origin, created and closed here, driven
 *    through `dispatch` with one handler object per exchange: no response stream, no promise per
 *    chunk, no AbortController (undici docs, "Dispatcher.dispatch"; the handler API of undici 7 and 8);
 *  - an undici Dispatcher (Pool, Agent, Client) the integrator created and passes in; the same
 *    handler is dispatched to it, and the integrator owns and closes it;
 *  - `'node'`: node:http(s) with a keep-alive Agent, no dependency beyond Node.
 * bench/proxy.ts measures them side by side.
 *
 * An exchange whose `client` went away is dropped at once, connection and all, wherever it is
 * (queued, sent, half-read).
 *
 * Statuses: only a final 200-599 is an answer (RFC 9110 section 15: outside 100-599 a status is
 * invalid). Interim 1xx answers are read past (RFC 9110 section 15.2: a client must parse them
 * "even if the client does not expect one"), except where the transport cannot: undici drops the
 * connection on a 100 (its parser: "bad response"), so there a 100 is a `bad-status`, as a 101
 * (an `Upgrade` the proxy never asked for) and an invalid status are on every transport: the
 * proxy's 502. An answer the parser cannot read at all (`HTTP/1.1 1000`, `HTTP/1.1 abc`, a
 * malformed header) is `malformed`, also a 502: the service was reached and answered nonsense.
 *
 * Deliberately does not: follow redirects, decompress (no Accept-Encoding is sent, so the service
 * answers identity), or retry anything but a GET whose reused keep-alive socket was closed by the
 * server before it could be read (node: Node's http docs, "agent.reuse"; undici retries that case
 * itself and closes idle sockets ahead of the server's Keep-Alive timeout).
 */
import http from 'node:http';
import https from 'node:https';
import { Pool, type Dispatcher } from 'undici';

export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** All answers being read at once, together: eight of the largest, thousands of the usual few KiB. */
export const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

/** What the budget needs of the connection an untaken answer waits on: closing it frees the answer. */
export interface ClientConnection {
  destroy(): unknown;
}

/**
 * A connection that has taken nothing of its untaken answers for this long has stopped reading,
 * and its answers may be given up for others. The proxy writes a large answer 64 KiB at a time and
 * hears that a slice was taken only when the kernel takes it into the connection's send buffer,
 * which it does once about a third of that buffer is free again: a client reading slowly over a
 * link with a large buffer (loopback's grows to 4 MiB) can go several seconds between two, while
 * a client that stopped reading takes nothing at all.
 */
export const STALLED_AFTER_MS = 10_000;

/** A connection's untaken answers, each with its size and whether it answers a state change. */
interface HeldConnection {
  connection: ClientConnection;
  answers: Map<ClientResponse, { bytes: number; change: boolean }>;
  /** How many of them answer a state change. */
  changes: number;
  /** When its client last took a slice of an answer (or it was first held). */
  takenAt: number;
}

/**
 * Bytes of the answers being read or not yet taken by their clients, shared by one upstream's
 * exchanges. Untaken answers are given up when their bytes are needed (`reclaim`) by closing
 * their connection, only that of a client that has stopped reading (STALLED_AFTER_MS), the one
 * stopped longest first: clients that stop reading can hold memory only while nobody else needs
 * it, and a client taking its answer slowly keeps it. A connection holding a state change's
 * answer is closed only to keep another state change's answer, never for a read or for a state
 * change not sent yet, which can be told "busy" and sent again.
 */
class ByteBudget {
  used = 0;
  /** Connections with untaken answers, the one whose client took something longest ago first (a Map keeps insertion order). */
  private readonly connections = new Map<ClientConnection, HeldConnection>();
  private readonly heldOn = new Map<ClientResponse, HeldConnection>();

  hold(bytes: number, client: ClientResponse, connection: ClientConnection, change: boolean): void {
    let held = this.connections.get(connection);
    if (held === undefined) {
      held = { connection, answers: new Map(), changes: 0, takenAt: performance.now() };
      this.connections.set(connection, held);
    }
    held.answers.set(client, { bytes, change });
    if (change) held.changes++;
    this.heldOn.set(client, held);
    this.used += bytes;
    client.once('close', () => this.release(client));
  }

  /** The client of `connection` took a slice of an answer: it is reading. */
  taken(connection: ClientConnection): void {
    const held = this.connections.get(connection);
    if (held === undefined) return;
    held.takenAt = performance.now();
    this.connections.delete(connection);
    this.connections.set(connection, held);
  }

  /**
   * Closes the connections of clients that stopped reading, the one stopped longest first, until
   * at most `limit` bytes are used; those holding a state change's answer only `forSentChange`,
   * after all others. False when `limit` is not reached.
   */
  reclaim(limit: number, forSentChange = false): boolean {
    const stalledSince = performance.now() - STALLED_AFTER_MS;
    for (const spareChanges of forSentChange ? [true, false] : [true]) {
      for (const held of this.connections.values()) {
        if (this.used <= limit || held.takenAt > stalledSince) break;
        if (spareChanges && held.changes > 0) continue;
        // Its bytes are free once the connection is gone ('close' reports that a turn later).
        for (const client of held.answers.keys()) this.release(client);
        held.connection.destroy();
      }
    }
    return this.used <= limit;
  }

  private release(client: ClientResponse): void {
    const held = this.heldOn.get(client);
    const answer = held?.answers.get(client);
    if (held === undefined || answer === undefined) return;
    this.heldOn.delete(client);
    held.answers.delete(client);
    if (answer.change) held.changes--;
    this.used -= answer.bytes;
    if (held.answers.size === 0) this.connections.delete(held.connection);
  }
}

/** The part of an undici Dispatcher (Pool, Agent, Client; undici 7 or 8) the proxy uses. */
export interface UndiciLikeDispatcher {
  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean;
}

/** `'undici'` (default): a Pool owned by the proxy; `'node'`: a node:http Agent; or your own undici Dispatcher. */
export type UpstreamTransport = 'undici' | 'node' | UndiciLikeDispatcher;

export interface UpstreamRequest {
  method: string;
  /** Service path with its query, appended to the upstream base path. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer | undefined;
  /**
   * The response to the proxy's client: when it closes before it was finished, the client went
   * away, and the exchange is dropped (rejected as `cancelled`). An EventEmitter listener, not an
   * AbortSignal: on the relay's hot path an AbortController per request cost about 15% more CPU.
   */
  client?: ClientResponse | undefined;
}

/** What the upstream needs of a node:http ServerResponse. */
export interface ClientResponse {
  once(event: 'close', listener: () => void): unknown;
  readonly writableFinished: boolean;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  constructor(
    readonly kind: 'timeout' | 'unreachable' | 'malformed' | 'too-large' | 'bad-status' | 'busy' | 'dropped' | 'cancelled',
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

export interface Upstream {
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
  /**
   * Counts `bytes` of an answer `client` has not taken yet in the budget, until its response
   * closes, or until the budget needs them and its client has stopped reading, when `connection`
   * is closed. `change`: it answers a state change.
   */
  hold(bytes: number, client: ClientResponse, connection: ClientConnection, change: boolean): void;
  /** The client of `connection` took a slice of an answer (see STALLED_AFTER_MS). */
  taken(connection: ClientConnection): void;
  close(): Promise<void>;
}

type Exchanges = Omit<Upstream, 'hold' | 'taken'>;

export function createUpstream(base: string, options: { timeoutMs: number; transport?: UpstreamTransport; connections?: number }): Upstream {
  const url = new URL(base);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('upstream must be an http: or https: URL');
  if (url.username || url.password || url.search || url.hash) throw new TypeError('upstream must not carry credentials, a query or a fragment');
  const basePath = url.pathname.replace(/\/+$/, '');
  const connections = options.connections ?? 64;
  const transport = options.transport ?? defaultTransport();
  const budget = new ByteBudget();
  const { send, close } = exchanges(url, basePath, options.timeoutMs, transport, connections, budget);
  return { send, close, hold: (bytes, client, connection, change) => budget.hold(bytes, client, connection, change), taken: (connection) => budget.taken(connection) };
}

/**
 * 'undici' under Node; 'node' under Bun, which answers `import 'undici'` with a stand-in of its own
 * (no `dispatch`), and under Deno, where undici reads environment variables that a server run with
 * --allow-env for its own settings only may not read (each exchange would fail).
 */
function defaultTransport(): 'undici' | 'node' {
  return process.versions.bun || process.versions.deno ? 'node' : 'undici';
}

function exchanges(url: URL, basePath: string, timeoutMs: number, transport: UpstreamTransport, connections: number, budget: ByteBudget): Exchanges {
  if (transport === 'node') return nodeUpstream(url, basePath, timeoutMs, connections, budget);
  if (transport === 'undici') {
    if (typeof Pool.prototype.dispatch !== 'function') throw new TypeError("transport 'undici' cannot run here: this runtime's undici has no Pool.dispatch (Bun puts its own in undici's place); leave transport unset or set it to 'node'");
    // The Pool's own timers bound what the exchange timer already bounds, so that nothing stays
    // queued or connected for longer than one exchange may take.
    const pool = new Pool(url.origin, { connections, connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    return undiciUpstream(pool, url, basePath, timeoutMs, budget, () => pool.destroy());
  }
  if (typeof transport?.dispatch !== 'function') throw new TypeError("transport must be 'undici', 'node' or an undici Dispatcher");
  // The dispatcher belongs to the integrator, who closes it.
  return undiciUpstream(transport, url, basePath, timeoutMs, budget, async () => {});
}

function nodeUpstream(url: URL, basePath: string, timeoutMs: number, connections: number, budget: ByteBudget): Exchanges {
  const secure = url.protocol === 'https:';
  const mod = secure ? https : http;
  const agent = new mod.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections, scheduling: 'lifo' });
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port || (secure ? 443 : 80);

  function once(request: UpstreamRequest, deadline: number): Promise<UpstreamResponse> {
    return new Promise((resolve, reject) => {
      // `request.headers` is a fresh object of this exchange: add to it rather than copy it.
      const headers = request.headers;
      if (request.body) headers['content-length'] = String(request.body.byteLength);
      const req = mod.request({ hostname, port, method: request.method, path: basePath + request.path, headers, agent });
      let settled = false;
      // Bytes of the answer read so far, all counted in the budget until the exchange settles.
      let size = 0;
      // A state change written to a connected socket may have reached the service (undici's
      // onRequestStart), though not all its bytes were handed over yet.
      let sent = false;
      const change = request.method !== 'GET';
      if (change) req.once('socket', (socket) => (socket.connecting ? socket.once(secure ? 'secureConnect' : 'connect', () => (sent = true)) : (sent = true)));
      const settle = () => {
        settled = true;
        clearTimeout(timer);
        budget.used -= size;
      };
      const finish = (error: UpstreamError | undefined, response?: UpstreamResponse) => {
        if (settled) return;
        settle();
        if (error) {
          req.destroy();
          reject(error);
        } else resolve(response!);
      };
      const timer = setTimeout(() => finish(timedOut(change && sent)), Math.max(0, deadline - Date.now()));
      const client = request.client;
      client?.once('close', () => client.writableFinished || finish(cancelled()));
      req.on('error', (cause: NodeJS.ErrnoException) => {
        if (settled) return;
        const retryable = request.method === 'GET' && req.reusedSocket && cause.code === 'ECONNRESET';
        if (retryable) {
          settle();
          reject(Object.assign(new UpstreamError('unreachable', 'retry', { cause }), { retryable: true }));
        } else finish(failure(change && sent, cause));
      });
      // An unasked-for 101: see the file header.
      req.on('upgrade', (_res, socket) => {
        socket.destroy();
        finish(badStatus(change));
      });
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 599) return void finish(badStatus(change));
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          size += chunk.length;
          budget.used += chunk.length;
          if (size > MAX_RESPONSE_BYTES) finish(tooLarge(change));
          else if (budget.used > MAX_BUFFERED_BYTES && !budget.reclaim(MAX_BUFFERED_BYTES, change)) finish(overBudget(request.method));
          else chunks.push(chunk);
        });
        // The service is answering: a state change reached it.
        res.on('error', (cause) => finish(failure(change, cause)));
        res.on('close', () => {
          if (!res.complete) finish(unreachable(change));
        });
        res.on('end', () => finish(undefined, { status, headers: res.headers, body: Buffer.concat(chunks, size) }));
      });
      req.end(request.body);
    });
  }

  return {
    async send(request) {
      if (noRoomFor(request.method, budget)) throw busy();
      const deadline = Date.now() + timeoutMs;
      try {
        return await once(request, deadline);
      } catch (e) {
        if ((e as { retryable?: boolean }).retryable) return once(request, deadline);
        throw e;
      }
    },
    async close() {
      agent.destroy();
    },
  };
}

function undiciUpstream(dispatcher: UndiciLikeDispatcher, url: URL, basePath: string, timeoutMs: number, budget: ByteBudget, close: () => Promise<void>): Exchanges {
  const origin = url.origin;
  return {
    send(request) {
      if (noRoomFor(request.method, budget)) return Promise.reject(busy());
      return new Promise<UpstreamResponse>((resolve, reject) => {
        const exchange = new BufferedExchange(resolve, reject, timeoutMs, budget, request.method);
        const client = request.client;
        client?.once('close', () => client.writableFinished || exchange.fail(cancelled()));
        // undici computes Content-Length from a Buffer body and sets Host from the origin.
        dispatcher.dispatch({ origin, method: request.method as Dispatcher.HttpMethod, path: basePath + request.path, headers: request.headers, body: request.body ?? null }, exchange);
      });
    },
    close,
  };
}

/**
 * One upstream exchange as an undici dispatch handler (the handler API shared by undici 7 and 8):
 * collects the answer, bounded in size (its own and the budget's), and settles once, giving its
 * bytes back to the budget. Its methods live on the prototype and the timer gets the exchange as
 * its argument, so an exchange allocates no closures.
 */
class BufferedExchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private readonly timer: NodeJS.Timeout;
  private settled = false;
  private status = 0;
  private headers: Record<string, string | string[] | undefined> = {};
  private chunks: Buffer[] = [];
  /** Bytes of the answer read so far, all counted in the budget until the exchange settles. */
  private size = 0;

  constructor(
    private readonly resolve: (r: UpstreamResponse) => void,
    private readonly reject: (e: UpstreamError) => void,
    timeoutMs: number,
    private readonly budget: ByteBudget,
    private readonly method: string,
  ) {
    this.timer = setTimeout(timeOut, timeoutMs, this);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // Timed out or cancelled while queued for a connection: do not send it now.
    if (this.settled) return void controller.abort(timedOut(false));
    this.controller = controller;
  }

  /** A state change that may have reached the service: it is written from onRequestStart on. */
  get sentChange(): boolean {
    return this.method !== 'GET' && this.controller !== undefined;
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    // 1xx interim answers are reported here too; only the final status counts (RFC 9110 section 15.2).
    // 100, 101 and invalid statuses are not answers (see the file header).
    if (statusCode < 200 || statusCode > 599) {
      if (statusCode < 102 || statusCode > 199) this.fail(badStatus(this.method !== 'GET'));
      return;
    }
    this.status = statusCode;
    this.headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    this.size += chunk.length;
    this.budget.used += chunk.length;
    if (this.size > MAX_RESPONSE_BYTES) this.fail(tooLarge(this.method !== 'GET'));
    else if (this.budget.used > MAX_BUFFERED_BYTES && !this.budget.reclaim(MAX_BUFFERED_BYTES, this.sentChange)) this.fail(overBudget(this.method));
    else this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settle();
    const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    this.resolve({ status: this.status, headers: this.headers, body });
  }

  /** undici ended the exchange: settles without aborting it. */
  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.settled) return;
    this.settle();
    this.reject(error instanceof UpstreamError ? error : undiciFailure(error, this.sentChange));
  }

  /**
   * Settles with `error` and aborts the exchange, which undici then reports to onResponseError
   * (ignored). Before the request started, onRequestStart aborts it.
   */
  fail(error: UpstreamError): void {
    if (this.settled) return;
    this.settle();
    this.reject(error);
    this.controller?.abort(error);
  }

  private settle(): void {
    this.settled = true;
    clearTimeout(this.timer);
    this.budget.used -= this.size;
  }
}

/**
 * What undici reports, as the proxy tells it: its parser drops the connection on a 100 ("bad
 * response") or an unasked-for upgrade ("bad upgrade"), which are answers, not an unreachable service;
 * its headers or body timeout (the Pool's, racing the exchange timer at the same bound, or an
 * injected dispatcher's shorter one) is a service that did not answer in time.
 */
function undiciFailure(error: Error, sentChange: boolean): UpstreamError {
  const code = (error as { code?: unknown }).code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return timedOut(sentChange);
  if (code === 'UND_ERR_SOCKET' && (error.message === 'bad response' || error.message === 'bad upgrade')) return badStatus(sentChange, error);
  return failure(sentChange, error);
}

/**
 * A failed connection, as the proxy tells it. An answer the HTTP parser cannot read (a status line
 * `HTTP/1.1 1000` or `HTTP/1.1 abc`, a malformed header or chunk) came from a service that was
 * reached: Node's parser reports it with an `HPE_` code, undici's as an HTTPParserError (by name,
 * so that an integrator's dispatcher from another copy of undici is read the same).
 */
function failure(sentChange: boolean, cause: unknown): UpstreamError {
  const code = (cause as { code?: unknown } | undefined)?.code;
  const parser = (typeof code === 'string' && code.startsWith('HPE_')) || (cause as { name?: unknown } | undefined)?.name === 'HTTPParserError';
  if (!parser) return unreachable(sentChange, cause);
  // The service answered: a state change reached it.
  return new UpstreamError('malformed', 'The service answered with something that is not valid HTTP.' + (sentChange ? MAY_HAVE_BEEN_CARRIED_OUT : ''), { cause });
}

/** Ends the message about a state change that may have reached the service. */
const MAY_HAVE_BEEN_CARRIED_OUT = ' The request may have been carried out; check before sending it again.';

/** `sentChange`: a state change that reached the service, or may have (see the file header). */
function unreachable(sentChange: boolean, cause?: unknown): UpstreamError {
  return sentChange
    ? new UpstreamError('unreachable', 'The connection to the service was lost after the request was sent, before its whole answer came back.' + MAY_HAVE_BEEN_CARRIED_OUT, { cause })
    : new UpstreamError('unreachable', 'The service could not be reached.', { cause });
}

function timedOut(sentChange: boolean): UpstreamError {
  return new UpstreamError('timeout', 'The service did not answer in time.' + (sentChange ? MAY_HAVE_BEEN_CARRIED_OUT : ''));
}

function badStatus(change: boolean, cause?: unknown): UpstreamError {
  const message = 'The service answered with a status the proxy does not relay (a 1xx it did not ask for, or one outside 100-599).';
  return new UpstreamError('bad-status', message + (change ? MAY_HAVE_BEEN_CARRIED_OUT : ''), { cause });
}

function tooLarge(change: boolean): UpstreamError {
  return new UpstreamError('too-large', 'The service answered with too large a body.' + (change ? MAY_HAVE_BEEN_CARRIED_OUT : ''));
}

function busy(): UpstreamError {
  return new UpstreamError('busy', 'The proxy is reading too many large answers at once; try again shortly.');
}

/** A state change is sent only while the budget has room for the largest answer (see the file header). */
function noRoomFor(method: string, budget: ByteBudget): boolean {
  const limit = MAX_BUFFERED_BYTES - MAX_RESPONSE_BYTES;
  return method !== 'GET' && budget.used > limit && !budget.reclaim(limit);
}

/** An answer dropped for the budget: a read can be sent again, a state change may have been carried out. */
function overBudget(method: string): UpstreamError {
  return method === 'GET'
    ? busy()
    : new UpstreamError(
        'dropped',
        'The proxy dropped the service\'s answer: it is reading too many large answers at once. The request reached the service and may have been carried out; check before sending it again.',
      );
}

function cancelled(): UpstreamError {
  return new UpstreamError('cancelled', 'The client went away.');
}

function timeOut(exchange: BufferedExchange): void {
  exchange.fail(timedOut(exchange.sentChange));
}
