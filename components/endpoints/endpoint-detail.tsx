"use client";

import { StateBadge } from "@/components/ui/state-badge";
import Link from "next/link";
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf, formErrorOf } from "@/components/trpc/errors";
import { Empty, Loading } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { formatGB } from "@/components/ui/format";
import { WeightsBar } from "./weights-bar";
import { ReplicasPanel } from "./replicas-panel";
import { EndpointCharts } from "@/components/metrics/endpoint-charts";
import { EndpointSla } from "@/components/metrics/endpoint-sla";


export function EndpointDetail({ id, canWrite }: { id: string; canWrite: boolean }) {
  const trpc = useTRPC();
  // Replicas load and fail on their own: keep the page live.
  const endpoint = useQuery(trpc.endpoint.get.queryOptions({ id }, { refetchInterval: 2000 }));
  if (endpoint.isPending) return <Loading what="the endpoint" />;
  if (!endpoint.data) return <Empty title="Endpoint not found"><Link href="/endpoints">Back to endpoints</Link></Empty>;
  const e = endpoint.data;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>{e.name}</h1>
          <p>
            API name <code>{e.slug}</code> · model <Link href={`/models/${e.model.id}`}>{e.model.name}</Link> · {e.engine} on {e.nodePool.name}{" "}
            <span className="badge">{e.nodePool.region}</span>
            {e.regionConstraint && <span className="badge badge-kvkk">only {e.regionConstraint}*</span>}
          </p>
        </div>
      </div>
      <div className="stats">
        <div className="stat">
          <b>{e.sloAvailabilityPct.toString()}%</b>
          <span>availability SLO</span>
        </div>
        <div className="stat">
          <b>{e.sloP99LatencyMs} ms</b>
          <span>p99 latency SLO</span>
        </div>
        <div className="stat">
          <b>{e.sloTtftMs ? `${e.sloTtftMs} ms` : "—"}</b>
          <span>TTFT SLO</span>
        </div>
        <div className="stat">
          <b>r{e.revision}</b>
          <span>revision</span>
        </div>
      </div>
      <EndpointSla endpoint={e} canWrite={canWrite} />
      <EndpointCharts endpointId={e.id} />
      <WeightsEditor endpoint={e} canWrite={canWrite} />
      <ReplicasPanel endpoint={e} canWrite={canWrite} />
      {canWrite && <AddVersion endpoint={e} />}
    </>
  );
}

type EndpointData = inferRouterOutputs<AppRouter>["endpoint"]["get"];

function WeightsEditor({ endpoint, canWrite }: { endpoint: EndpointData; canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [draft, setDraft] = useState<Record<string, number> | null>(null);
  const weights = draft ?? Object.fromEntries(endpoint.versions.map((v) => [v.id, v.weight]));
  const sum = Object.values(weights).reduce((s, w) => s + w, 0);
  const save = useMutation(
    trpc.endpoint.setWeights.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: (after) => {
        qc.setQueryData(trpc.endpoint.get.queryKey({ id: endpoint.id }), after);
        void qc.invalidateQueries({ queryKey: trpc.endpoint.list.queryKey() });
        setDraft(null);
        toast.success("Traffic split saved");
      },
      onError: (err) => {
        // A stale view: show the current state rather than overwriting someone else's change.
        if (err instanceof TRPCClientError && err.data?.code === "CONFLICT") void qc.invalidateQueries({ queryKey: trpc.endpoint.get.queryKey({ id: endpoint.id }) });
      },
    }),
  );
  return (
    <div className="panel">
      <h2>Versions and traffic</h2>
      <WeightsBar versions={endpoint.versions.map((v) => ({ id: v.id, label: v.modelVersion.version, weight: weights[v.id] ?? 0 }))} />
      {save.error && (
        <div className="form-error" role="alert" style={{ marginTop: 12 }}>
          {fieldErrorsOf(save.error).weights?.join(" ") ?? formErrorOf(save.error)}
        </div>
      )}
      <table style={{ marginTop: 12 }}>
        <thead>
          <tr>
            <th>Version</th>
            <th>State</th>
            <th>Format</th>
            <th>Weights</th>
            <th>Traffic %</th>
          </tr>
        </thead>
        <tbody>
          {endpoint.versions.map((v) => (
            <tr key={v.id}>
              <td>
                <b>{v.modelVersion.version}</b> <span className="muted">{v.modelVersion.precision}</span>
              </td>
              <td>
                <StateBadge state={v.state} />
              </td>
              <td>{v.modelVersion.format}</td>
              <td>{formatGB(v.modelVersion.weightBytes)}</td>
              <td>
                {canWrite ? (
                  <input
                    aria-label={`Traffic for ${v.modelVersion.version}`}
                    type="number"
                    min={0}
                    max={100}
                    style={{ width: 90 }}
                    value={weights[v.id] ?? 0}
                    onChange={(ev) => setDraft({ ...weights, [v.id]: Math.max(0, Math.min(100, Math.round(Number(ev.target.value) || 0))) })}
                  />
                ) : (
                  `${v.weight}%`
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {canWrite && (
        <div className="actions" style={{ marginTop: 12 }}>
          <button
            className="primary"
            disabled={!draft || sum !== 100 || save.isPending}
            onClick={() =>
              save.mutate({
                endpointId: endpoint.id,
                expectedRevision: endpoint.revision,
                weights: Object.entries(weights).map(([endpointVersionId, weight]) => ({ endpointVersionId, weight })),
              })
            }
          >
            Save split
          </button>
          {draft && (
            <button type="button" onClick={() => (setDraft(null), save.reset())}>
              Discard
            </button>
          )}
          <span className={sum === 100 ? "muted" : "error"}>Total {sum}%{sum !== 100 && " — must be 100%"}</span>
        </div>
      )}
    </div>
  );
}

function AddVersion({ endpoint }: { endpoint: EndpointData }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const model = useQuery(trpc.model.get.queryOptions({ id: endpoint.model.id }));
  const [versionId, setVersionId] = useState("");
  const add = useMutation(
    trpc.endpoint.addVersion.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: (after) => {
        qc.setQueryData(trpc.endpoint.get.queryKey({ id: endpoint.id }), after);
        setVersionId("");
        toast.success("Version added at 0% traffic");
      },
    }),
  );
  const onEndpoint = new Set(endpoint.versions.map((v) => v.modelVersion.id));
  const candidates = model.data?.versions.filter((v) => !onEndpoint.has(v.id)) ?? [];
  return (
    <div className="panel">
      <h2>Add a version beside the live one</h2>
      {add.error && <div className="form-error">{fieldErrorsOf(add.error).modelVersionId?.join(" ") ?? formErrorOf(add.error)}</div>}
      {candidates.length === 0 ? (
        <p className="muted">
          Every version of {endpoint.model.name} is already here. <Link href={`/models/${endpoint.model.id}`}>Add a new model version</Link> first.
        </p>
      ) : (
        <div className="actions">
          <select aria-label="Version to add" value={versionId} onChange={(e) => setVersionId(e.target.value)} style={{ maxWidth: 260 }}>
            <option value="">Choose a version…</option>
            {candidates.map((v) => (
              <option key={v.id} value={v.id}>
                {v.version}
              </option>
            ))}
          </select>
          <button disabled={!versionId || add.isPending} onClick={() => add.mutate({ endpointId: endpoint.id, modelVersionId: versionId, expectedRevision: endpoint.revision })}>
            Add at 0%
          </button>
        </div>
      )}
    </div>
  );
}
