import { describe, expect, it } from "vitest";
import type { ReplicaSpec } from "../driver.ts";
import { engineMetrics, servingContainer, MAX_NUM_SEQS, TRITON_METRICS_PORT } from "./workload.ts";
import type { PodObj } from "./kube-types.ts";

const spec = (task: ReplicaSpec["task"]): ReplicaSpec => ({ id: "r1", endpointSlug: "chat", servedModelName: "m", versionId: "v1", versionLabel: "1.0", task, weightBytes: 1, parameterCount: 1, device: { kind: "cpu", hostname: "n1" } as ReplicaSpec["device"] });
const podOf = (task: ReplicaSpec["task"]): PodObj => ({ spec: { containers: [servingContainer(spec(task), { kind: "cpu" } as never, 8000)] } });

describe("where Prometheus scrapes a pod Kule started", () => {
  it("is vLLM's API port with the batch limit Kule gave it", () => {
    expect(engineMetrics(podOf("llm"), "10.0.0.7", 8000)).toEqual({ metricsUrl: "http://10.0.0.7:8000/metrics", maxNumSeqs: MAX_NUM_SEQS });
  });
  it("is Triton's own metrics port, with no batch limit", () => {
    expect(engineMetrics(podOf("vision"), "10.0.0.8", 8000)).toEqual({ metricsUrl: `http://10.0.0.8:${TRITON_METRICS_PORT}/metrics`, maxNumSeqs: null });
  });
});
