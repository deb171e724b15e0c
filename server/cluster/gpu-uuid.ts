import { createHash } from "node:crypto";

/**
 * A stable, NVIDIA-shaped GPU UUID for GPU `index` of `hostname`. The simulator names its GPUs
 * with it, and the Kubernetes driver too: Node objects carry GPU counts, not UUIDs, so a GPU is
 * known by its node and index, and both sides agree on its name.
 */
export function gpuUuid(hostname: string, index: number): string {
  const h = createHash("sha256").update(`kule-gpu:${hostname}:${index}`).digest("hex");
  return `GPU-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
