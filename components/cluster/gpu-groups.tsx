"use client";

import Link from "next/link";
import { useTranslations } from "use-intl";
import { ReplicaLine } from "./replica-line";
import { parallelismText } from "@/server/shared/memory-rule";
import type { NodeView } from "./types";
import styles from "./cluster.module.css";

/**
 * The node's GPUs as a row of cells, each tensor/pipeline-parallel replica one block spanning the
 * GPUs it holds (as the MIG bar spans an instance's slots), with its replica line under it.
 */
export function GpuGroups({ node, canWrite, faults }: { node: NodeView; canWrite: boolean; faults: boolean }) {
  const t = useTranslations("cluster.groups");
  if (node.groups.length === 0) return null;
  const columns = Math.max(1, ...node.gpus.map((g) => g.index + 1));
  return (
    <section aria-label={t("title")} className={styles.groups}>
      <div className={styles.groupBar} style={{ gridTemplateColumns: `repeat(${columns}, 1fr)` }}>
        {node.groups.flatMap((g) => {
          const name = `${g.replica.endpoint} ${g.replica.version}`;
          const split = parallelismText({ tensor: g.tensorParallel, pipeline: g.pipelineParallel });
          // Contiguous GPUs draw as one block; a group over scattered GPUs draws one cell each.
          const sorted = [...g.gpuIndices].sort((a, b) => a - b);
          const runs: number[][] = [];
          for (const i of sorted) {
            const last = runs[runs.length - 1];
            if (last && last[last.length - 1] === i - 1) last.push(i);
            else runs.push([i]);
          }
          return runs.map((run) => (
            <div key={`${g.replica.id}-${run[0]}`} role="group" aria-label={t("label", { name, split, gpus: sorted.join(", ") })} className={styles.groupCell} style={{ gridColumn: `${run[0]! + 1} / span ${run.length}` }}>
              <b>{split}</b> <span>{name}</span> <small>{t("overGpus", { gpus: run.join(", ") })}</small>
            </div>
          ));
        })}
      </div>
      {node.groups.map((g) => (
        <div key={g.replica.id}>
          <Link href={`/cluster/replicas/${encodeURIComponent(g.replica.id)}`}>{t("charts", { name: `${g.replica.endpoint} ${g.replica.version}` })}</Link>
          <ReplicaLine replica={g.replica} where={g.pipelineParallel > 1 ? t("pipeline", { members: g.members.join(", ") }) : `GPU ${g.gpuIndices.join(", ")}`} canWrite={canWrite} faults={faults} />
        </div>
      ))}
    </section>
  );
}
