"use client";

import { useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { formErrorOf } from "@/components/trpc/errors";
import { useSaveOptions } from "@/components/ui/form-panel";
import type { RequestClass } from "@/server/endpoints/schemas";
import { RoutingSettings } from "./routing-settings";

interface Endpoint {
  id: string;
  name: string;
  revision: number;
  retiredAt: Date | string | null;
  replicaChoice: "least_outstanding" | "prefix_aware";
  fallbackEndpointIds: string[];
  requestClasses: unknown;
  versions: { id: string; weight: number; state: string; shadowPercent: number; modelVersion: { version: string } }[];
}

function ruleText(c: RequestClass): string {
  if (c.match.kind === "prompt_tokens_over") return `prompt over ${c.match.tokens} tokens`;
  if (c.match.kind === "header") return `header ${c.match.name} = ${c.match.value}`;
  return `metadata.${c.match.key} = ${c.match.value}`;
}

/** Shadow traffic for one version at weight 0: the share of calls copied to it (0 stops it). */
function ShadowControl({ endpoint: e, version: v, canWrite }: { endpoint: Endpoint; version: Endpoint["versions"][number]; canWrite: boolean }) {
  const trpc = useTRPC();
  const saved = useSaveOptions();
  const [percent, setPercent] = useState(String(v.shadowPercent));
  const set = useMutation(trpc.endpoint.setShadow.mutationOptions(saved({ refresh: trpc.endpoint.get.queryKey({ id: e.id }), toast: () => `v${v.modelVersion.version}: shadow traffic ${percent}%` })));
  return (
    <li>
      v{v.modelVersion.version}: {v.shadowPercent ? <b>{v.shadowPercent}% of calls copied</b> : "no shadow traffic"}
      {canWrite && (
        <span className="actions">
          <input aria-label={`Shadow percent for v${v.modelVersion.version}`} type="number" min={0} max={100} value={percent} onChange={(ev) => setPercent(ev.target.value)} style={{ width: "5em" }} />
          <button type="button" disabled={set.isPending} onClick={() => set.mutate({ endpointVersionId: v.id, expectedRevision: e.revision, percent: Number(percent) })}>
            Set
          </button>
        </span>
      )}
      {set.error && (
        <div className="form-error" role="alert">
          {formErrorOf(set.error)}
        </div>
      )}
    </li>
  );
}

/** The endpoint's routing at a glance — replica choice, fallbacks, classes, shadow traffic — and the form that changes it. */
export function RoutingPanel({ endpoint: e, canWrite }: { endpoint: Endpoint; canWrite: boolean }) {
  const trpc = useTRPC();
  const [editing, setEditing] = useState(false);
  const list = useQuery(trpc.endpoint.list.queryOptions());
  const nameOf = (id: string) => list.data?.find((o) => o.id === id)?.name ?? id;
  const classes = (e.requestClasses ?? []) as RequestClass[];
  const candidates = e.versions.filter((v) => v.weight === 0 && v.state !== "retired");
  if (editing) return <RoutingSettings endpoint={e} onDone={() => setEditing(false)} />;
  return (
    <div className="panel">
      <h2>Routing</h2>
      <p>
        Replica choice: <b>{e.replicaChoice === "prefix_aware" ? "prefix-aware (cache affinity, bounded load)" : "least outstanding requests"}</b>
      </p>
      <p>
        Fallbacks: {e.fallbackEndpointIds.length ? e.fallbackEndpointIds.map(nameOf).join(" → ") : <span className="muted">none — a failing call fails</span>}
      </p>
      <div>
        Request classes:{" "}
        {classes.length ? (
          <ul>
            {classes.map((c) => (
              <li key={c.name}>
                <code>{c.name}</code>: {ruleText(c)} → {nameOf(c.endpointId)}
              </li>
            ))}
          </ul>
        ) : (
          <span className="muted">none — every call stays here</span>
        )}
      </div>
      <div>
        Shadow traffic:{" "}
        {candidates.length ? (
          <ul>
            {candidates.map((v) => (
              <ShadowControl key={v.id} endpoint={e} version={v} canWrite={canWrite && !e.retiredAt} />
            ))}
          </ul>
        ) : (
          <span className="muted">deploy a version at weight 0 to measure it on copies of real calls before it takes any</span>
        )}
      </div>
      {canWrite && !e.retiredAt && (
        <div className="actions">
          <button type="button" onClick={() => setEditing(true)}>
            Edit routing…
          </button>
        </div>
      )}
    </div>
  );
}
