import fs from "node:fs";
import path from "node:path";
import yaml from "js-yaml";

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

interface Kustomization {
  resources: string[];
  labels?: { pairs: Record<string, string>; includeSelectors?: boolean }[];
  images?: { name: string; newName?: string; newTag?: string }[];
}

/**
 * What `kubectl kustomize deploy/kubernetes` renders, for the parts this kustomization uses:
 * its resources, their extra labels, and image names. (No kustomize binary is needed to test the
 * manifests; the kustomization stays within these features.)
 */
export function renderKustomization(dir: string): Manifest[] {
  const k = yaml.load(fs.readFileSync(path.join(dir, "kustomization.yaml"), "utf8")) as Kustomization;
  const known = new Set(["apiVersion", "kind", "resources", "labels", "images"]);
  const extra = Object.keys(k).filter((key) => !known.has(key));
  if (extra.length) throw new Error(`kustomization.yaml uses ${extra.join(", ")}, which renderKustomization does not render`);
  const docs = k.resources.flatMap((r) => yaml.loadAll(fs.readFileSync(path.join(dir, r), "utf8")).filter(Boolean) as Manifest[]);
  for (const d of docs) {
    for (const l of k.labels ?? []) d.metadata.labels = { ...d.metadata.labels, ...l.pairs };
    for (const c of containersOf(d)) {
      const image = k.images?.find((i) => i.name === c.image);
      if (image) c.image = `${image.newName ?? image.name}${image.newTag ? `:${image.newTag}` : ""}`;
    }
  }
  return docs;
}

export function containersOf(d: Manifest): { image: string }[] {
  const spec = d.spec as { template?: { spec?: { containers?: { image: string }[] } }; jobTemplate?: unknown } | undefined;
  return spec?.template?.spec?.containers ?? [];
}
