import { createHash } from "node:crypto";
import type { MigProgress, TopologyNode } from "../driver.ts";
import { supportsMig, validateMigLayout, type MigInstanceSpec } from "../mig.ts";
import { ConflictError, InvalidInputError, isErrorKind } from "../../errors.ts";
import type { KubeClient } from "./kube-client.ts";
import { GPU, KULE, type ConfigMapObj, type NodeObj, type PodObj } from "./kube-types.ts";
import { dumpMigParted, inexpressible, parseMigParted, toMigParted, type MigPartedConfig } from "./mig-plan.ts";
import type { KubernetesSettings } from "./settings.ts";

export interface MigWriterDeps {
  client: KubeClient;
  settings: KubernetesSettings;
  node(name: string): NodeObj | undefined;
  topologyNode(node: NodeObj): TopologyNode;
  configMap(): ConfigMapObj | undefined;
  podsOn(node: string): PodObj[];
}

const GiB = 2 ** 30;

/** Config names are label values: at most 63 characters of [a-z0-9.-_]. */
function configName(node: string, layouts: MigInstanceSpec[][]): string {
  const hash = createHash("sha256").update(node + JSON.stringify(layouts)).digest("hex").slice(0, 8);
  return `kule-${node.toLowerCase().replace(/[^a-z0-9.-]+/g, "-").slice(0, 48)}-${hash}`;
}

/**
 * A MIG layout for one GPU, asked of the node's MIG manager the GPU Operator's way: the node's
 * whole layout (this GPU's new one, the others' as they are) becomes a mig-parted entry in Kule's
 * ConfigMap, then the node is labelled `nvidia.com/mig.config=<entry>`. What the manager cannot do
 * is refused before anything is written: a GPU without MIG, a node without a manager, slots the
 * manager would not choose, GPU workloads still on the node, a change already under way.
 */
export async function requestMigLayout(d: MigWriterDeps, hostname: string, gpuIndex: number, layout: MigInstanceSpec[]): Promise<MigProgress> {
  const node = d.node(hostname);
  if (!node) throw new ConflictError(`Kubernetes has no node ${hostname}`);
  const topo = d.topologyNode(node);
  const gpu = topo.gpus[gpuIndex]!;
  const labels = node.metadata?.labels ?? {};
  if (!supportsMig(gpu.modelName)) throw new InvalidInputError("layout", `${gpu.modelName} does not support MIG`);
  if (labels[GPU.migCapable] !== "true") throw new ConflictError(`${hostname} has no MIG manager (its GPUs are not labelled nvidia.com/mig.capable=true by the GPU Operator)`);
  if (labels[GPU.migStrategy] === "single" && layout.length) throw new ConflictError(`${hostname} uses the single MIG strategy, which needs one profile on every GPU of the node; Kule lays out one GPU at a time: switch the node to the mixed strategy`);
  const problems = validateMigLayout(gpu.memoryBytes / GiB, layout);
  if (problems.length) throw new InvalidInputError("layout", problems.join("; "));
  const why = inexpressible(gpu.memoryBytes / GiB, layout);
  if (why) throw new InvalidInputError("layout", why);
  if (topo.mig?.state === "pending" || topo.mig?.state === "rebooting") {
    throw new ConflictError(`A MIG change (${topo.mig.config}) is already under way on ${hostname}${topo.mig.since ? ` since ${new Date(topo.mig.since).toISOString()}` : ""}: wait for it to finish`);
  }
  const busy = d.podsOn(hostname);
  if (busy.length) {
    throw new ConflictError(`On Kubernetes the node's MIG manager re-partitions with every GPU workload off ${hostname}: stop or drain its ${busy.length} replica(s) there first`);
  }
  const layouts = topo.gpus.map((g) => (g.index === gpuIndex ? layout : g.migInstances.map(({ profile, startSlot }) => ({ profile, startSlot }))));
  const name = configName(hostname, layouts);
  await writeConfig(d, hostname, name, toMigParted(layouts));
  const since = Date.now();
  await d.client.mergePatch({ apiVersion: "v1", kind: "Node", metadata: { name: hostname } }, { metadata: { labels: { [GPU.migConfig]: name }, annotations: { [KULE.migRequestedAt]: String(since) } } });
  return { config: name, state: "pending", since, reason: null };
}

/** Adds the entry to Kule's mig-parted ConfigMap (dropping this node's entries no node uses), retrying on a conflicting write. */
async function writeConfig(d: MigWriterDeps, hostname: string, name: string, groups: ReturnType<typeof toMigParted>): Promise<void> {
  const { namespace, name: cmName, key } = d.settings.migConfigMap;
  const ref = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: cmName, namespace } };
  let current = d.configMap();
  for (let attempt = 0; ; attempt++) {
    const config: MigPartedConfig = current?.data?.[key] ? parseMigParted(current.data[key]) : { version: "v1", "mig-configs": { "all-disabled": [{ devices: "all", "mig-enabled": false }] } };
    const inUse = new Set([d.node(hostname)?.metadata?.labels?.[GPU.migConfig]]);
    for (const k of Object.keys(config["mig-configs"])) if (k.startsWith(configName(hostname, []).slice(0, -8)) && !inUse.has(k)) delete config["mig-configs"][k];
    config["mig-configs"][name] = groups;
    const data = { [key]: dumpMigParted(config) };
    try {
      if (!current) await d.client.apply({ ...ref, data } as typeof ref, false);
      else await d.client.mergePatch(ref, { metadata: { resourceVersion: current.metadata?.resourceVersion }, data });
      return;
    } catch (e) {
      if (!isErrorKind(e, "conflict") || attempt >= 4) throw e;
      // Someone else wrote it since we read it: read it again and redo the change on top.
      current = await d.client.read<ConfigMapObj>(ref).catch((err: unknown) => (isErrorKind(err, "not_found") ? undefined : Promise.reject(err)));
    }
  }
}
