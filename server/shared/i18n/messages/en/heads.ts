/** The heads of pages whose page file (app/) writes them itself. */
export const heads = {
  cluster: "Cluster",
  alerts: {
    title: "Alerts",
    intro: "Burn-rate, replica, GPU, budget and MIG alerts as Alertmanager delivered them, where else they go, and maintenance windows.",
    history: "Alert history",
  },
  apiKeys: {
    title: "API keys",
    own: "Keys your applications use to call the gateway.",
    all: "Every tenant's keys, by prefix. Secrets are never stored.",
  },
  gpu: { title: "GPU {uuid}", intro: "the whole GPU and each MIG instance, as dcgm-exporter reports them" },
  replicaGpus: { title: "GPUs of replica {name}", intro: "every GPU of a tensor/pipeline-parallel group read together: utilization mean and max, memory per GPU, power summed" },
  node: { title: "Node {hostname}", intro: "every GPU of the node, as dcgm-exporter reports them" },
  explore: { title: "Explore metrics", intro: "Raw PromQL against Kule's Prometheus: every tenant's series, so operators and admins only." },
};
