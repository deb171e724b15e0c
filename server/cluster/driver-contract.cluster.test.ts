import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type http from "node:http";
import { SimCluster } from "./sim/cluster.ts";
import { startControlServer } from "./sim/control-server.ts";
import { smallTopology, LLAMA_8B } from "./sim/fixtures.ts";
import { SimDriver } from "./sim-driver.ts";
import { ExternalDriver } from "./external-driver.ts";
import type { ClusterDriver, ClusterEvent, Device, ReplicaSpec } from "./driver.ts";
import { KubernetesDriver } from "./kubernetes/kubernetes-driver.ts";
import { startSimulatedKubernetes } from "./kubernetes/sim-bridge/simulated-kubernetes.ts";
import { defaultKubernetesSettings } from "./kubernetes/default-settings.ts";
import { gpuUuid } from "./gpu-uuid.ts";
import type { StandIn } from "./kubernetes/stand-in/index.ts";

/**
 * The simulator that backs all three drivers: the sim driver drives it over its control API, the
 * Kubernetes driver through a Kubernetes API server stand-in whose kubelets run its engines, and
 * the external driver points at its replicas.
 */
let cluster: SimCluster;
let control: http.Server;
let sim: SimDriver;
let external: ExternalDriver;
let standIn: StandIn;
let kubernetes: KubernetesDriver;
let kserve: KubernetesDriver;
let freeGpus: string[];

const spec = (id: string, device: Device): ReplicaSpec => ({
  id,
  endpointSlug: "chat",
  servedModelName: "llama-3.1-8b-instruct",
  versionId: "v-contract",
  versionLabel: "1.0",
  task: "llm",
  ...LLAMA_8B,
  device,
});

/** A ready server the simulator runs (on its CPU node, which any number share), for the external driver to register. */
async function simServer(id: string): Promise<string> {
  await cluster.startReplica(spec(id, { kind: "cpu", hostname: "cpu-1" }));
  return (await cluster.awaitReady(id, 10_000)).url!;
}

beforeAll(async () => {
  cluster = new SimCluster(smallTopology(), { storageBandwidth: 20e9, latencyScale: 0.1 });
  const started = await startControlServer(cluster, 0);
  control = started.server;
  sim = new SimDriver(started.url);
  external = new ExternalDriver({ healthIntervalMs: 200, failuresBeforeDown: 2 });
  freeGpus = ["GPU-llm-1-0", "GPU-llm-1-1", "GPU-fra-1-0"];
  standIn = await startSimulatedKubernetes(cluster, { migDelayMs: 50, msPerBackoffSecond: 50 });
  kubernetes = new KubernetesDriver(standIn.kubeConfig(), defaultKubernetesSettings());
  kserve = new KubernetesDriver(standIn.kubeConfig(), defaultKubernetesSettings({ workload: "inferenceservice" }));
  await Promise.all([kubernetes.ready(), kserve.ready()]);
});
afterAll(async () => {
  kubernetes.close();
  kserve.close();
  await standIn.stop();
  external.close();
  await cluster.shutdown();
  await new Promise((r) => control.close(r));
});

const drivers: { name: string; driver: () => ClusterDriver; device: (id: string) => Promise<Device> }[] = [
  { name: "sim", driver: () => sim, device: async () => ({ kind: "gpu", gpuUuid: freeGpus.pop()! }) },
  { name: "external", driver: () => external, device: async (id) => ({ kind: "external", url: await simServer(`backing-${id}`), region: "tr-ist" }) },
  // Kubernetes names GPUs by node and index; its kubelet maps them onto the simulator's.
  { name: "kubernetes", driver: () => kubernetes, device: async () => ({ kind: "gpu", gpuUuid: gpuUuid("fra-1", 1) }) },
  // The same driver writing one KServe InferenceService per version instead of a Deployment.
  { name: "kubernetes-kserve", driver: () => kserve, device: async () => ({ kind: "gpu", gpuUuid: gpuUuid("llm-1", 1) }) },
];

for (const d of drivers) {
  describe(`driver contract: ${d.name}`, () => {
    it("starts a replica that turns ready, reports it, serves it, and stops it", async () => {
      const driver = d.driver();
      const events: ClusterEvent[] = [];
      const off = driver.subscribe((e) => events.push(e));
      await new Promise((r) => setTimeout(r, 100)); // let an event stream connect
      const id = `contract-${d.name}`;
      const started = await driver.startReplica(spec(id, await d.device(id)));
      expect(["pending", "loading"]).toContain(started.state);

      const ready = await driver.awaitReady(id, 15_000);
      expect(ready.state).toBe("ready");
      // The simulator listens on 127.0.0.1; the Kubernetes stand-in gives each pod its own loopback address.
      expect(ready.url).toMatch(/^http:\/\/127\.\d+\.\d+\.\d+:\d+$/);
      expect((await driver.replicaHealth(id)).state).toBe("ready");
      expect((await driver.listReplicas()).map((r) => r.id)).toContain(id);

      const models = (await (await fetch(`${ready.url}/v1/models`)).json()) as { data: { id: string }[] };
      expect(models.data[0]!.id).toBe("llama-3.1-8b-instruct");

      await driver.stopReplica(id);
      expect((await driver.listReplicas()).map((r) => r.id)).not.toContain(id);
      await new Promise((r) => setTimeout(r, 100));
      off();
      const states = events.filter((e) => e.type === "replica" && e.replica.id === id).map((e) => (e as { replica: { state: string } }).replica.state);
      expect(["pending", "loading"]).toContain(states[0]);
      expect(states).toContain("ready");
      expect(states.at(-1)).toBe("stopped");
    });

    it("refuses to wait forever for a replica that will not come up", async () => {
      const driver = d.driver();
      const id = `contract-slow-${d.name}`;
      const device: Device =
        d.name === "sim" ? { kind: "mig", gpuUuid: "GPU-llm-2-0", startSlot: 4 } : d.name.startsWith("kubernetes") ? { kind: "mig", gpuUuid: gpuUuid("llm-2", 0), startSlot: 4 } : { kind: "external", url: "http://127.0.0.1:9", region: "tr-ist" };
      // sim, kubernetes: a 70B model on a 10 GB MIG slice cannot load; external: nothing listens on port 9.
      const s = { ...spec(id, device), parameterCount: 70e9, weightBytes: 70e9 };
      await driver.startReplica(s);
      await expect(driver.awaitReady(id, 3000)).rejects.toThrow();
      await driver.stopReplica(id).catch(() => {});
    });
  });
}

describe("what only the simulator can do", () => {
  it("fails a replica whose weights and minimum KV cache do not fit, with the out-of-memory reason", async () => {
    const id = "oom";
    await sim.startReplica({ ...spec(id, { kind: "mig", gpuUuid: "GPU-llm-2-0", startSlot: 4 }), parameterCount: 70.6e9, weightBytes: 70.6e9 });
    await expect(sim.awaitReady(id, 10_000)).rejects.toThrow(/CUDA out of memory/);
    const health = await sim.replicaHealth(id);
    expect(health.state).toBe("failed");
    expect(health.reason).toMatch(/Tried to allocate .* GiB .* total capacity of 10\.00 GiB/);
  });

  it("places a small model on a MIG instance", async () => {
    await sim.startReplica({ ...spec("mig-ok", { kind: "mig", gpuUuid: "GPU-llm-2-0", startSlot: 0 }) });
    expect((await sim.awaitReady("mig-ok", 10_000)).state).toBe("ready");
    await sim.stopReplica("mig-ok");
  });

  it("refuses a MIG layout that breaks NVIDIA's rules, and one on a busy GPU", async () => {
    await expect(sim.applyMigLayout("GPU-vis-1-0", [{ profile: "3g.24gb", startSlot: 0 }])).rejects.toThrow(/does not support MIG/);
    await expect(sim.applyMigLayout("GPU-llm-2-0", [{ profile: "4g.40gb", startSlot: 0 }, { profile: "4g.40gb", startSlot: 4 }])).rejects.toThrow(/can start only at slot 0/);
    await sim.applyMigLayout("GPU-llm-2-0", [{ profile: "4g.40gb", startSlot: 0 }, { profile: "3g.40gb", startSlot: 4 }]);
    const gpu = (await sim.listTopology()).pools.flatMap((p) => p.nodes).find((n) => n.hostname === "llm-2")!.gpus[0]!;
    expect(gpu.migInstances.map((m) => m.profile)).toEqual(["4g.40gb", "3g.40gb"]);
  });

  it("keeps new replicas off a cordoned node", async () => {
    await sim.cordon("fra-1");
    await expect(sim.startReplica(spec("on-cordoned", { kind: "gpu", gpuUuid: "GPU-fra-1-0" }))).rejects.toThrow(/cordoned/);
    await sim.uncordon("fra-1");
  });
});

describe("what the external driver cannot do", () => {
  it("says it cannot re-partition or cordon servers it does not run", async () => {
    await expect(external.applyMigLayout()).rejects.toThrow(/cannot re-partition/);
    await expect(external.cordon()).rejects.toThrow(/cannot cordon/);
  });

  it("deregistering leaves the server running", async () => {
    const url = await simServer("keeps-running");
    await external.startReplica(spec("ext-keep", { kind: "external", url, region: "tr-ist" }));
    await external.awaitReady("ext-keep", 5000);
    await external.stopReplica("ext-keep");
    expect((await fetch(`${url}/health`)).status).toBe(200);
  });

  it("marks a server failed when its health checks keep failing", async () => {
    const url = await simServer("dies");
    await external.startReplica(spec("ext-dies", { kind: "external", url, region: "tr-ist" }));
    await external.awaitReady("ext-dies", 5000);
    await cluster.killReplica("dies");
    await expect.poll(async () => (await external.replicaHealth("ext-dies")).state, { timeout: 5000 }).toBe("failed");
  });
});
