import { deployLayout, type DeployLayout } from "@/server/shared/deploy-layout";

/**
 * The link from a capacity plan to an endpoint's deploy form, pre-filled with the chosen layout,
 * and its reading back on the endpoint page. The bounds are the deploy input's own
 * (server/shared/deploy-layout.ts): a link the deploy would refuse fills nothing.
 */
export type { DeployLayout };

export function deployHref(endpointId: string, l: DeployLayout): string {
  const q = new URLSearchParams({ deploy: l.modelVersionId, replicas: String(l.replicas), tp: String(l.parallelism.tensor), pp: String(l.parallelism.pipeline) });
  return `/endpoints/${endpointId}?${q}#deploy`;
}

// An absent or blank parameter is NaN, which the schema's number refuses.
const numberOf = (v: string | null) => (v === null || v.trim() === "" ? Number.NaN : Number(v));

/** The layout a link carries, or null when it carries none (or one the deploy input would refuse). */
export function readDeployLayout(q: Pick<URLSearchParams, "get">): DeployLayout | null {
  const read = deployLayout.safeParse({
    modelVersionId: q.get("deploy") ?? undefined,
    replicas: numberOf(q.get("replicas")),
    parallelism: { tensor: numberOf(q.get("tp")), pipeline: numberOf(q.get("pp")) },
  });
  return read.success ? read.data : null;
}
