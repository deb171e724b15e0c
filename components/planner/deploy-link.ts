/**
 * The link from a capacity plan to an endpoint's deploy form, pre-filled with the chosen layout,
 * and its reading back on the endpoint page: one owner for the query's names and bounds (the
 * deploy input's, server/rollouts/schemas.ts).
 */
export interface DeployLayout {
  modelVersionId: string;
  replicas: number;
  parallelism: { tensor: number; pipeline: number };
}

const BOUNDS = { replicas: [1, 16], tensor: [1, 8], pipeline: [1, 16] } as const;

export function deployHref(endpointId: string, l: DeployLayout): string {
  const q = new URLSearchParams({ deploy: l.modelVersionId, replicas: String(l.replicas), tp: String(l.parallelism.tensor), pp: String(l.parallelism.pipeline) });
  return `/endpoints/${endpointId}?${q}#deploy`;
}

const whole = (v: string | null, [min, max]: readonly [number, number]) => {
  const n = Number(v);
  return v !== null && Number.isInteger(n) && n >= min && n <= max ? n : null;
};

/** The layout a link carries, or null when it carries none (or numbers out of the deploy input's bounds). */
export function readDeployLayout(q: URLSearchParams): DeployLayout | null {
  const modelVersionId = q.get("deploy");
  const replicas = whole(q.get("replicas"), BOUNDS.replicas);
  const tensor = whole(q.get("tp"), BOUNDS.tensor);
  const pipeline = whole(q.get("pp"), BOUNDS.pipeline);
  if (!modelVersionId || replicas === null || tensor === null || pipeline === null) return null;
  return { modelVersionId, replicas, parallelism: { tensor, pipeline } };
}
