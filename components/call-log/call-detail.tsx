"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { Loading } from "@/components/ui/field";
import { useFormat } from "@/components/i18n/use-format";
import { useClientIpText } from "./client-ip";

/** One request's full record and the traffic split its endpoint had when it started. */
export function CallDetail({ requestId, unmaskReason }: { requestId: string; unmaskReason?: string }) {
  const trpc = useTRPC();
  const t = useTranslations("callLog.detail");
  const fmt = useFormat();
  const ipText = useClientIpText();
  const call = useQuery(trpc.callLog.get.queryOptions({ requestId, unmaskReason }));
  if (call.isPending) return <Loading what={t("loading")} />;
  if (call.isError) return <p className="error">{call.error.message}</p>;
  const c = call.data;
  const facts: [Parameters<typeof t>[0], string | number | null][] = [
    ["requestId", c.requestId],
    ["tenant", `${c.tenantSlug ?? "?"} (${c.tenantId})`],
    ["apiKey", c.apiKeyId ? `${c.apiKeyName ?? "?"} (${c.apiKeyId})` : null],
    ["endpoint", c.endpointId ? `${c.endpointSlug ?? "?"} (${c.endpointId})` : null],
    ["version", c.versionId ? `${c.versionLabel ?? "?"} (${c.versionId})` : null],
    ["replica", c.replica && (c.routeReason === "affinity" || c.routeReason === "load" ? `${c.replica} (${t(`routeReason.${c.routeReason}`)})` : c.replica)],
    ["requestClass", c.requestClass],
    ["fallbacks", c.fallbackChain && `${c.fallbackChain.split(">").join(" → ")} → ${c.endpointSlug ?? "?"}`],
    ["region", c.region],
    ["clientIp", ipText(c)],
    ["started", fmt.dateTime(c.startedAt) + ` (${new Date(c.startedAt).toISOString()})`],
    ["duration", `${fmt.number(new Date(c.endedAt).getTime() - new Date(c.startedAt).getTime())} ms`],
    ["ttft", c.ttftMs === null ? null : `${fmt.number(c.ttftMs)} ms`],
    ["status", c.status + (c.errorClass ? ` (${c.errorClass})` : "")],
    ["tokens", `${fmt.number(c.promptTokens)} / ${fmt.number(c.completionTokens)}`],
    ["subject", c.hasSubject ? t("subjectSent") : t("subjectNone")],
    ["trace", c.traceId],
  ];
  return (
    <div className="grid-2" aria-label={t("aria")}>
      <dl className="facts">
        {facts.map(([k, v]) => (
          <div key={k}>
            <dt className="muted">{t(k)}</dt>
            <dd className="mono">
              {k === "trace" && c.traceUrl ? (
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
        <b>{t("weightsTitle")}</b>
        {c.weightsInForce ? (
          <>
            <p className="muted">
              {t.rich("setBy", { action: c.weightsInForce.action, date: fmt.dateTime(c.weightsInForce.at), actor: c.weightsInForce.actorEmail ?? t("system"), code: (x) => <code>{x}</code> })}
            </p>
            <pre className="mono">{JSON.stringify(c.weightsInForce.after, null, 2)}</pre>
          </>
        ) : (
          <p className="muted">{t("noChange")}</p>
        )}
      </div>
    </div>
  );
}
