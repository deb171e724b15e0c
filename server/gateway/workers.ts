import cluster, { type Worker } from "node:cluster";
import net from "node:net";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { AggregatorRegistry, Counter, Gauge } from "prom-client";
import { CALL_LOG_FLUSH_MS } from "./call-log-thread.ts";
import type { Gateway } from "./server.ts";
import { WorkerLoads, type PlacementPolicy } from "./placement.ts";

const METRICS_ASK = "kule:gateway:metrics";
const METRICS_REPLY = "kule:gateway:metrics:reply";
const LISTENING = "kule:gateway:listening";
/** Primary → worker: a connection (the handle rides along); a number of keep-alive connections to let go. */
const CONNECTION = "kule:gateway:connection";
const SHED = "kule:gateway:shed";
/** Worker → primary, every LOAD_REPORT_MS: its event loop's utilisation since the last report, its open connections and the handovers it has received. */
const LOAD = "kule:gateway:load";
const LOAD_REPORT_MS = 250;

/**
 * How many gateway worker processes to run on this machine. Without Redis each process keeps its
 * own rate-limit buckets, so more than one would let that many times the limit through: one
 * worker then, and asking for more is refused. With Redis, one per core unless told otherwise.
 */
export function workerCount(requested: number | undefined, redis: boolean, cores = os.availableParallelism()): number {
  if (requested !== undefined && requested > 1 && !redis) {
    throw new Error(
      `KULE_GATEWAY_WORKERS=${requested} needs REDIS_URL: without it every worker keeps its own rate limits, so ${requested} workers would let ${requested} times each limit through. Set REDIS_URL, or run one worker.`,
    );
  }
  return requested ?? (redis ? cores : 1);
}

/**
 * A worker of an `n`-worker gateway cuts its journal every n × CALL_LOG_FLUSH_MS, so the gateway
 * sends PostgreSQL as many batches a second, of the same size, as one process does. A batch costs
 * its thread and the database a fixed share of CPU whatever its size (a journal segment made and
 * removed, a COPY begun and committed): at n times the batches, each worker paid it n times as often
 * per call (measured: about 0.03 ms of CPU a call between 100 and 300 ms). Rows are durable in the
 * journal from the answer on; only their arrival in PostgreSQL comes up to n × 100 ms later.
 */
export const callLogFlushMs = (workers: number) => CALL_LOG_FLUSH_MS * Math.max(1, workers);

/**
 * The primary of a multi-process gateway: forks `n` workers, accepts the API's connections itself
 * and hands each to a worker as placement.ts decides (the admin and gRPC ports the workers share
 * through node:cluster, round-robin), starts a new worker in the same slot a second after one dies
 * (the slot names its spool directory, so rows a dead worker spooled are replayed by its
 * successor), and answers the workers' /metrics with every worker's series summed. A worker that
 * dies before it ever listened (no database, a port taken) would only die again: `failed` settles
 * with why.
 */
export function superviseWorkers(
  n: number,
  workerEnv: Record<string, string>,
  api: { port: number; host: string; policy: PlacementPolicy },
): { listening: Promise<string>; failed: Promise<string>; stop: () => Promise<void> } {
  const aggregator = new AggregatorRegistry();
  /** Workers ready for connections, by slot, and their loads. */
  const ready = new Map<number, Worker>();
  const loads = new WorkerLoads(api.policy);
  /** Connections accepted before any worker was ready. */
  const waiting: net.Socket[] = [];
  const handOver = (socket: net.Socket) => {
    const slot = loads.place();
    if (slot === null) return void waiting.push(socket);
    ready.get(slot)!.send({ type: CONNECTION }, socket, (e) => {
      if (!e) return;
      loads.unplace(slot);
      socket.destroy();
    });
  };
  let stopping = false;
  let resolveListening!: (url: string) => void;
  let resolveFailed!: (why: string) => void;
  const listening = new Promise<string>((r) => (resolveListening = r));
  const failed = new Promise<string>((r) => (resolveFailed = r));
  // Paused: the bytes a client sends before its worker has the socket wait in the kernel.
  const apiServer = net.createServer({ pauseOnConnect: true, noDelay: true }, handOver);
  apiServer.on("error", (e) => resolveFailed(`The gateway could not listen on ${api.host}:${api.port}: ${e.message}`));
  apiServer.listen(api.port, api.host);
  let up = 0;
  const fork = (slot: number) => {
    let listened = false;
    const w = cluster.fork({ ...workerEnv, KULE_GATEWAY_WORKER_SLOT: String(slot) });
    w.on("message", (m: { type?: string; id?: number; utilization?: number; connections?: number; received?: number }) => {
      if (m?.type === LOAD && ready.get(slot) === w) {
        const shed = loads.report(slot, m.utilization!, m.connections!, m.received!);
        if (shed) w.send({ type: SHED, count: shed });
      }
      if (m?.type === LISTENING) {
        listened = true;
        ready.set(slot, w);
        loads.ready(slot);
        for (const socket of waiting.splice(0)) handOver(socket);
        if (++up === n) resolveListening(`http://${api.host}:${(apiServer.address() as net.AddressInfo).port}`);
      }
      if (m?.type === METRICS_ASK) {
        aggregator.clusterMetrics().then(
          (text) => w.isConnected() && w.send({ type: METRICS_REPLY, id: m.id, text }),
          (e: Error) => w.isConnected() && w.send({ type: METRICS_REPLY, id: m.id, error: e.message }),
        );
      }
    });
    w.on("exit", (code, signal) => {
      if (ready.get(slot) === w) {
        ready.delete(slot);
        loads.gone(slot);
      }
      if (stopping) return;
      const how = signal ?? `code ${code}`;
      if (!listened) return resolveFailed(`A gateway worker exited (${how}) before it could listen; see its message above.`);
      console.error(`Gateway worker in slot ${slot} exited (${how}); starting another.`);
      setTimeout(() => !stopping && fork(slot), 1000).unref();
    });
  };
  // A worker runs one per core, so V8's parallel and concurrent GC helpers only take time from the
  // other workers: collected on the worker's own thread instead, the gateway's heap (small,
  // short-lived objects) cost about 0.02 ms less CPU per call in total (0.576 against 0.598 ms,
  // same run, 1,000 req/s), and the pauses stay short.
  cluster.setupPrimary({ execArgv: [...process.execArgv, "--single-threaded-gc"] });
  for (let slot = 0; slot < n; slot++) fork(slot);
  return {
    listening,
    failed,
    async stop() {
      stopping = true;
      apiServer.close();
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());
      await Promise.all(workers.map((w) => new Promise<void>((r) => (w.once("exit", () => r()), w.process.kill("SIGTERM")))));
    },
  };
}

/**
 * In a worker: this worker's registry joins the primary's sum; it serves the connections the
 * primary hands over, lets go of as many keep-alive connections as it is asked to, reports its
 * load, and says when it is ready.
 */
export function joinSupervisor(gateway: Gateway, slot: number) {
  const registers = [gateway.metrics.registry];
  AggregatorRegistry.setRegistries(registers);
  new AggregatorRegistry(); // in a worker, its constructor is what answers the primary's requests
  process.on("message", (m: { type?: string; count?: number }, handle?: unknown) => {
    if (m?.type === CONNECTION && handle instanceof net.Socket) gateway.acceptConnection(handle);
    if (m?.type === SHED) gateway.shed = m.count!;
  });
  // Per worker, so an operator sees how the primary packed and spread the load.
  const worker = String(slot);
  const elu = new Gauge({ name: "kule_gateway_worker_event_loop_utilization", help: "Share of the last 250 ms a gateway worker's event loop was busy.", labelNames: ["worker"], registers });
  new Gauge({ name: "kule_gateway_worker_connections", help: "API connections a gateway worker holds.", labelNames: ["worker"], registers, collect() { this.set({ worker }, gateway.handedOff); } });
  let shedSeen = 0;
  new Counter({
    name: "kule_gateway_worker_connections_shed_total",
    help: "Keep-alive connections a busy gateway worker closed after an answer, so their clients reconnect to a less busy worker.",
    labelNames: ["worker"],
    registers,
    collect() {
      this.inc({ worker }, gateway.shedTotal - shedSeen);
      shedSeen = gateway.shedTotal;
    },
  });
  let since = performance.eventLoopUtilization();
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, since);
    since = now;
    elu.set({ worker }, utilization);
    process.send!({ type: LOAD, utilization, connections: gateway.handedOff, received: gateway.handoffsReceived });
  }, LOAD_REPORT_MS).unref();
  process.send!({ type: LISTENING });
}

let asked = 0;
/** In a worker: every worker's metrics, summed by the primary (a scrape may land on any worker). */
export function clusterMetricsText(): Promise<string> {
  const id = ++asked;
  return new Promise((resolve, reject) => {
    const onReply = (m: { type?: string; id?: number; text?: string; error?: string }) => {
      if (m?.type !== METRICS_REPLY || m.id !== id) return;
      process.off("message", onReply);
      clearTimeout(timer);
      if (m.error) reject(new Error(m.error));
      else resolve(m.text!);
    };
    const timer = setTimeout(() => {
      process.off("message", onReply);
      reject(new Error("The gateway's primary process did not answer for its workers' metrics."));
    }, 6000);
    process.on("message", onReply);
    process.send!({ type: METRICS_ASK, id });
  });
}
