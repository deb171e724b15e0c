"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Loading } from "@/components/ui/field";
import { formatDateTime } from "@/components/ui/format";

/** One request's full record and the traffic split its endpoint had when it started. */
export function CallDetail({ requestId }: { requestId: string }) {
  const trpc = useTRPC();
  const call = useQuery(trpc.callLog.get.queryOptions({ requestId }));
  if (call.isPending) return <Loading what="the call" />;
  if (call.isError) return <p className="error">{call.error.message}</p>;
  const c = call.data;
  const facts: [string, string | number | null][] = [
    ["Request id", c.requestId],
    ["Tenant", `${c.tenantSlug ?? "?"} (${c.tenantId})`],
    ["API key", c.apiKeyId ? `${c.apiKeyName ?? "?"} (${c.apiKeyId})` : null],
    ["Endpoint", c.endpointId ? `${c.endpointSlug ?? "?"} (${c.endpointId})` : null],
    ["Version", c.versionId ? `${c.versionLabel ?? "?"} (${c.versionId})` : null],
    ["Replica", c.replica],
    ["Region", c.region],
    ["Client IP", c.clientIp],
    ["Started", formatDateTime(c.startedAt) + ` (${new Date(c.startedAt).toISOString()})`],
    ["Duration", `${new Date(c.endedAt).getTime() - new Date(c.startedAt).getTime()} ms`],
    ["TTFT", c.ttftMs === null ? null : `${c.ttftMs} ms`],
    ["Status", c.status + (c.errorClass ? ` (${c.errorClass})` : "")],
    ["Tokens in / out", `${c.promptTokens} / ${c.completionTokens}`],
    ["Data subject", c.hasSubject ? "a `user` identifier was sent (stored only as a keyed hash)" : "none sent"],
    ["Trace", c.traceId],
  ];
  return (
    <div className="grid-2" aria-label="Call record">
      <dl className="facts">
        {facts.map(([k, v]) => (
          <div key={k}>
            <dt className="muted">{k}</dt>
            <dd className="mono">
              {k === "Trace" && c.traceUrl ? (
                <a href={c.traceUrl} target="_blank" rel="noreferrer">
                  {v}
                </a>
              ) : (
                (v ?? "—")
              )}
            </dd>
          </div>
        ))}
      </dl>
      <div>
        <b>Weights in force when it started</b>
        {c.weightsInForce ? (
          <>
            <p className="muted">
              set by <code>{c.weightsInForce.action}</code> at {formatDateTime(c.weightsInForce.at)} by {c.weightsInForce.actorEmail ?? "the system"}
            </p>
            <pre className="mono">{JSON.stringify(c.weightsInForce.after, null, 2)}</pre>
          </>
        ) : (
          <p className="muted">No change to this endpoint&apos;s split is on record before this call.</p>
        )}
      </div>
    </div>
  );
}
