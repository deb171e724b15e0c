import { z } from "zod";
import { id } from "../schemas/common.ts";

export const deviceInput = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("gpu"), gpuId: id }),
  z.object({ kind: z.literal("mig"), gpuId: id, startSlot: z.number().int().min(0).max(7) }),
  z.object({ kind: z.literal("cpu"), nodeId: id }),
  /** A tensor/pipeline-parallel group: whole GPUs in rank order, the same number on each node (one pipeline stage per node). */
  z.object({ kind: z.literal("group"), gpuIds: z.array(id).min(2, "a group holds 2 GPUs or more").max(64, "at most 64 GPUs").refine((ids) => new Set(ids).size === ids.length, "a GPU appears twice") }),
]);

export const startReplicaInput = z.object({ endpointVersionId: id, device: deviceInput });

const serverUrl = (example: string) =>
  z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, `a server URL such as ${example}`)
    .transform((u) => u.replace(/\/+$/, ""));

/** Loopback: the call never leaves the host, so plain HTTP exposes nothing on a network. */
const LOOPBACK = /^http:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(\/|$)/;

export const registerExternalInput = z
  .object({
    endpointVersionId: id,
    url: serverUrl("https://10.0.0.5:8000"),
    /** Where Prometheus scrapes it; unset: `<url>/metrics` for vLLM, port 8002 of the same host for Triton. */
    metricsUrl: z.preprocess((v) => (v === "" ? undefined : v), serverUrl("http://10.0.0.5:8002/metrics").optional()),
    region: z.string().trim().regex(/^[a-z]{2}-[a-z]+$/, "a region such as tr-ist or de-fra"),
    /** Prompts carry personal data: plain http:// to another host is refused unless allowed here (KVKK Art. 12). */
    allowPlainHttp: z.boolean().default(false),
    /** How many GPUs the server uses (its tensor parallel size) and of what kind, so its hours are costed. */
    gpuCount: z.number().int("a whole number").min(1, "1 or more").max(64, "at most 64 GPUs").default(1),
    gpuModel: z.preprocess((v) => (v === "" ? undefined : v), z.string().trim().min(2, "a GPU model such as NVIDIA H100 80GB HBM3").max(100, "at most 100 characters").optional()),
  })
  .refine((i) => !i.url.startsWith("http://") || LOOPBACK.test(i.url) || i.allowPlainHttp, {
    path: ["url"],
    message: "plain http:// would carry prompts unencrypted (KVKK Art. 12): use https://, or set allowPlainHttp if the network itself is protected",
  });

export const stopReplicaInput = z.object({ replicaId: id, drainSeconds: z.number().int().min(0).max(3600).default(0) });

export const migLayoutInput = z.object({
  gpuId: id,
  layout: z.array(z.object({ profile: z.string().regex(/^\dg\.\d+gb$/, "a MIG profile such as 3g.40gb"), startSlot: z.number().int().min(0).max(7) })).max(7),
});

export const cordonInput = z.object({ nodeId: id, cordoned: z.boolean() });

export const faultInput = z.discriminatedUnion("type", [
  z.object({ type: z.literal("kill-replica"), replicaId: id }),
  z.object({ type: z.literal("gpu-xid"), gpuId: id, xid: z.number().int().min(1).max(200).default(79) }),
  z.object({ type: z.literal("node-status"), nodeId: id, status: z.enum(["down", "ready"]) }),
  z.object({ type: z.literal("slow-replica"), replicaId: id, factor: z.number().min(1, "1 or more").max(100, "at most 100") }),
  z.object({ type: z.literal("version-errors"), endpointVersionId: id, share: z.number().min(0, "0 to 1").max(1, "0 to 1") }),
]);

export type StartReplicaInput = z.infer<typeof startReplicaInput>;
export type RegisterExternalInput = z.infer<typeof registerExternalInput>;
export type MigLayoutInput = z.infer<typeof migLayoutInput>;
export type FaultInput = z.infer<typeof faultInput>;
export type StopReplicaInput = z.input<typeof stopReplicaInput>;
export type CordonInput = z.infer<typeof cordonInput>;

export const freeDevicesInput = z.object({ endpointVersionId: id });
export type FreeDevicesInput = z.infer<typeof freeDevicesInput>;

export const nodeRefInput = z.object({ hostname: z.string().trim().min(1).max(253) });
export type NodeRefInput = z.infer<typeof nodeRefInput>;

/** What the cluster page's node list is narrowed by; every field optional, pages of at most 100. */
export const nodeListInput = z.object({
  search: z.string().trim().max(100).optional(),
  poolId: id.optional(),
  state: z.enum(["ready", "not_ready", "down", "cordoned", "mig_pending", "mig_failed"]).optional(),
  gpuModel: z.string().trim().max(100).optional(),
  migProfile: z.string().regex(/^\dg\.\d+gb$/, "a MIG profile such as 3g.40gb").optional(),
  region: z.string().trim().max(40).optional(),
  faultsOnly: z.boolean().optional(),
  /** The hostname after which the page starts. */
  after: z.string().max(253).optional(),
  limit: z.number().int().min(1).max(100).default(25),
});
export type NodeListInput = z.input<typeof nodeListInput>;

export const migChangeInput = z.object({
  changes: z
    .array(z.object({ gpuId: id, layout: migLayoutInput.shape.layout }))
    .min(1, "choose at least one GPU")
    .max(16, "at most 16 GPUs at once")
    .refine((c) => new Set(c.map((x) => x.gpuId)).size === c.length, "each GPU once"),
  /** After the re-partition, start the moved replicas on the new layout and drain the temporary ones. */
  moveBack: z.boolean().default(false),
});
export type MigChangeInput = z.infer<typeof migChangeInput>;
export const migChangeRefInput = z.object({ id });
export type MigChangeRefInput = z.infer<typeof migChangeRefInput>;
