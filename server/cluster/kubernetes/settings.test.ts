import { describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { kubernetesSettings, loadKubeConfig } from "./settings.ts";
import type { Env } from "../../env.ts";

const kubeconfig = (contexts: string[]) =>
  [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    ...contexts.flatMap((c) => [`- name: ${c}`, "  cluster:", `    server: https://${c}.example.com:6443`]),
    "users:",
    "- name: u",
    "  user:",
    "    token: t",
    "contexts:",
    ...contexts.flatMap((c) => [`- name: ${c}`, "  context:", `    cluster: ${c}`, "    user: u"]),
    `current-context: ${contexts[0]}`,
  ].join("\n");

describe("how the driver reaches a cluster", () => {
  it("reads the kubeconfig file named in the settings, at its current context or the one named", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kule-kc-")), "config");
    fs.writeFileSync(file, kubeconfig(["prod-ist", "prod-fra"]));
    expect(loadKubeConfig({ kubeconfig: file }, false).getCurrentCluster()?.server).toBe("https://prod-ist.example.com:6443");
    expect(loadKubeConfig({ kubeconfig: file, context: "prod-fra" }, true).getCurrentCluster()?.server).toBe("https://prod-fra.example.com:6443");
    expect(() => loadKubeConfig({ kubeconfig: file, context: "nope" }, false)).toThrow('The kubeconfig has no context "nope" (it has prod-ist, prod-fra)');
  });

  it("takes its settings from the environment, the MIG ConfigMap as namespace/name", () => {
    const s = kubernetesSettings({ KULE_KUBE_NAMESPACE: "kule-replicas", KULE_KUBE_POOL_LABEL: "pool", KULE_KUBE_WORKLOAD: "inferenceservice", KULE_KUBE_MIG_CONFIGMAP: "gpu-operator/kule-mig" } as Env);
    expect(s).toMatchObject({ namespace: "kule-replicas", poolLabel: "pool", workload: "inferenceservice", migConfigMap: { namespace: "gpu-operator", name: "kule-mig", key: "config.yaml" } });
  });
});
