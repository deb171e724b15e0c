"use client";

import { useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
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
  privatePrefixCache: boolean;
  fallbackEndpointIds: string[];
  requestClasses: unknown;
  versions: { id: string; weight: number; state: string; shadowPercent: number; modelVersion: { version: string } }[];
}

/** A class's rule's two arguments: tokens; header name and value; metadata key and value. */
function ruleArgs(c: RequestClass): { a: string; b: string } {
  if (c.match.kind === "prompt_tokens_over") return { a: String(c.match.tokens), b: "" };
  if (c.match.kind === "header") return { a: c.match.name, b: c.match.value };
  return { a: c.match.key, b: c.match.value };
}

/** Shadow traffic for one version at weight 0: the share of calls copied to it (0 stops it). */
function ShadowControl({ endpoint: e, version: v, canWrite }: { endpoint: Endpoint; version: Endpoint["versions"][number]; canWrite: boolean }) {
  const trpc = useTRPC();
  const t = useTranslations("endpoints.routing");
  const saved = useSaveOptions();
  const [percent, setPercent] = useState(String(v.shadowPercent));
  const version = v.modelVersion.version;
  const set = useMutation(trpc.endpoint.setShadow.mutationOptions(saved({ refresh: trpc.endpoint.get.queryKey({ id: e.id }), toast: () => t("shadowSaved", { version, percent }) })));
  return (
    <li>
      v{version}: {v.shadowPercent ? <b>{t("shadowOn", { percent: v.shadowPercent })}</b> : t("shadowOff")}
      {canWrite && (
        <span className="actions">
          <input aria-label={t("shadowPercent", { version })} type="number" min={0} max={100} value={percent} onChange={(ev) => setPercent(ev.target.value)} style={{ width: "5em" }} />
          <button type="button" disabled={set.isPending} onClick={() => set.mutate({ endpointVersionId: v.id, expectedRevision: e.revision, percent: Number(percent) })}>
            {t("set")}
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
  const t = useTranslations("endpoints.routing");
  const [editing, setEditing] = useState(false);
  const list = useQuery(trpc.endpoint.list.queryOptions());
  const nameOf = (id: string) => list.data?.find((o) => o.id === id)?.name ?? id;
  const classes = (e.requestClasses ?? []) as RequestClass[];
  const candidates = e.versions.filter((v) => v.weight === 0 && v.state !== "retired");
  if (editing) return <RoutingSettings endpoint={e} onDone={() => setEditing(false)} />;
  return (
    <div className="panel">
      <h2>{t("title")}</h2>
      <p>{t.rich("choice", { choice: t(`choices.${e.replicaChoice}`), b: (c) => <b>{c}</b> })}</p>
      <p>
        {t("fallbacks")} {e.fallbackEndpointIds.length ? e.fallbackEndpointIds.map(nameOf).join(" → ") : <span className="muted">{t("noFallbacks")}</span>}
      </p>
      <div>
        {t("classes")}{" "}
        {classes.length ? (
          <ul>
            {classes.map((c) => (
              <li key={c.name}>
                <code>{c.name}</code>: {t(`rule.${c.match.kind}`, ruleArgs(c))} → {nameOf(c.endpointId)}
              </li>
            ))}
          </ul>
        ) : (
          <span className="muted">{t("noClasses")}</span>
        )}
      </div>
      <div>
        {t("shadow")}{" "}
        {candidates.length ? (
          <ul>
            {candidates.map((v) => (
              <ShadowControl key={v.id} endpoint={e} version={v} canWrite={canWrite && !e.retiredAt} />
            ))}
          </ul>
        ) : (
          <span className="muted">{t("noShadow")}</span>
        )}
      </div>
      {canWrite && !e.retiredAt && (
        <div className="actions">
          <button type="button" onClick={() => setEditing(true)}>
            {t("edit")}
          </button>
        </div>
      )}
    </div>
  );
}
