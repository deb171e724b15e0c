import type { Dispatcher } from "undici";
import type { IncomingHttpHeaders } from "node:http";

/**
 * One request to a replica through undici's dispatcher API: callbacks instead of the Readable
 * body and promise that `request()` builds around every answer. On the gateway's hot path that
 * machinery was about a tenth of a bare Node proxy's CPU per request (bench/gateway.ts measures
 * CPU per request beside latency).
 *
 * `started` resolves with the status and headers, or rejects if no answer began (a refused or
 * reset connection): only then may the gateway try another replica. The body is then either
 * collected (`body()`) or passed on chunk by chunk (`pipe()`); chunks that arrive before either is
 * called wait here.
 */
export class UpstreamCall implements Dispatcher.DispatchHandler {
  status = 0;
  headers: IncomingHttpHeaders = {};
  readonly started: Promise<void>;
  private controller: Dispatcher.DispatchController | null = null;
  private abortReason: Error | null = null;
  private chunks: Buffer[] = [];
  private sink: ((chunk: Buffer) => boolean) | null = null;
  private ended = false;
  private failure: Error | null = null;
  private settle: ((e: Error | null) => void) | null = null;
  private dataWaiter: (() => void) | null = null;
  private resolveStart!: () => void;
  private rejectStart!: (e: Error) => void;

  constructor() {
    this.started = new Promise((resolve, reject) => {
      this.resolveStart = resolve;
      this.rejectStart = reject;
    });
    // A call nobody awaits any more (the client left first) must not raise an unhandled rejection.
    this.started.catch(() => {});
  }

  /** Stops the call (the client went away): the upstream request is cancelled and its connection dropped. */
  abort(reason: Error) {
    this.abortReason ??= reason;
    this.controller?.abort(reason);
  }

  /** The whole body, once it has arrived. */
  async body(): Promise<Buffer> {
    const parts: Buffer[] = [];
    await this.pipe((c) => (parts.push(c), true));
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  /**
   * Hands each chunk to `write` as it arrives; while `write` returns false the upstream is paused
   * until resume() (backpressure from a slow client). Resolves at the end of the body.
   */
  pipe(write: (chunk: Buffer) => boolean): Promise<void> {
    this.sink = write;
    for (const c of this.chunks.splice(0)) if (!write(c)) this.controller?.pause();
    if (this.ended || this.failure) return this.failure ? Promise.reject(this.failure) : Promise.resolve();
    return new Promise((resolve, reject) => (this.settle = (e) => (e ? reject(e) : resolve())));
  }

  /** Resolves at the body's first chunk, or its end (a fallback may be taken only before a byte went on). */
  firstData(): Promise<void> {
    if (this.chunks.length || this.ended || this.failure) return Promise.resolve();
    return new Promise((r) => (this.dataWaiter = r));
  }
  private wake() {
    this.dataWaiter?.();
    this.dataWaiter = null;
  }

  resume() {
    this.controller?.resume();
  }

  onRequestStart(controller: Dispatcher.DispatchController) {
    this.controller = controller;
    if (this.abortReason) controller.abort(this.abortReason);
  }

  onResponseStart(_c: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders) {
    if (statusCode < 200) return; // 1xx: the answer proper follows
    this.status = statusCode;
    this.headers = headers;
    this.resolveStart();
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer) {
    if (this.dataWaiter) this.wake();
    if (!this.sink) this.chunks.push(chunk);
    else if (!this.sink(chunk)) controller.pause();
  }

  onResponseEnd() {
    this.ended = true;
    this.wake();
    this.settle?.(null);
  }

  onResponseError(_c: Dispatcher.DispatchController, error: Error) {
    if (this.status === 0) return this.rejectStart(error); // no answer began: another replica may be tried
    this.failure = error;
    this.wake();
    this.settle?.(error);
  }
}
