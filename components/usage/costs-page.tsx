"use client";

import Link from "next/link";
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf, formErrorOf } from "@/components/trpc/errors";
import { Empty } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { useToast } from "@/components/ui/toast";
import { formatDateTime } from "@/components/ui/format";
import { formatMoney } from "./adapters";
import { PeriodSelect, type Period } from "./period-select";
import { PageHead } from "@/components/ui/page-head";
import { PlanLimits } from "./plan-limits";

const CUR = "TRY";

/** Staff view: tenants ranked, each endpoint's revenue against what it costs to run, idle capacity, and pricing. */
export function CostsPage({ canEditPricing }: { canEditPricing: boolean }) {
  const trpc = useTRPC();
  const [days, setDays] = useState<Period>(30);
  const ranking = useQuery(trpc.usage.ranking.queryOptions({ days }, { ...PANEL_QUERY, refetchInterval: 30_000 }));
  const economics = useQuery(trpc.usage.economics.queryOptions({ days }, { refetchInterval: 30_000 }));
  return (
    <>
      <PageHead title="Costs" action={<PeriodSelect value={days} onChange={setDays} />}>
        Revenue from the call log at the prices in force, against what the replicas cost to run (GPU-hours × the hardware rates below).
      </PageHead>
      {economics.data && (
        <div className="stats">
          <div className="stat">
            <b>{formatMoney(economics.data.endpoints.reduce((s, e) => s + Number(e.revenue), 0).toFixed(2), CUR)}</b>
            <span>revenue</span>
          </div>
          <div className="stat">
            <b>{formatMoney(economics.data.endpoints.reduce((s, e) => s + Number(e.infraCost), 0).toFixed(2), CUR)}</b>
            <span>endpoints&apos; running cost</span>
          </div>
          <div className="stat">
            <b data-testid="idle-cost">{formatMoney(economics.data.idle.devicesCost, CUR)}</b>
            <span>idle devices ({economics.data.idle.deviceHours} device-hours)</span>
          </div>
          <div className="stat">
            <b>{formatMoney(economics.data.idle.unusedEndpointCost, CUR)}</b>
            <span>replicas up with no calls</span>
          </div>
        </div>
      )}
      <div className="panel">
        <h2>Tenants by charges</h2>
        <QueryState query={ranking} what="the ranking" empty={<Empty title="No usage in this period">Tenants appear here once their calls have been rolled up (within a minute).</Empty>}>
          {(data) => (
            <table data-testid="ranking">
              <thead>
                <tr>
                  <th>#</th>
                  <th>Tenant</th>
                  <th>Requests</th>
                  <th>Tokens</th>
                  <th>Charged</th>
                  <th>Infrastructure cost</th>
                  <th>Margin</th>
                </tr>
              </thead>
              <tbody>
                {data.map((r, i) => (
                  <tr key={r.tenantId}>
                    <td>{i + 1}</td>
                    <td>
                      <Link href={`/usage?tenant=${r.tenantId}`}>{r.name}</Link>
                    </td>
                    <td>{r.requests.toLocaleString("tr-TR")}</td>
                    <td>{r.tokens.toLocaleString("tr-TR")}</td>
                    <td>{formatMoney(r.charged, CUR)}</td>
                    <td>{formatMoney(r.infraCost, CUR)}</td>
                    <td className={Number(r.margin) < 0 ? "error" : undefined}>{formatMoney(r.margin, CUR)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </div>
      <div className="panel">
        <h2>Endpoints: price against running cost</h2>
        {economics.data && (
          <table data-testid="economics">
            <thead>
              <tr>
                <th>Endpoint</th>
                <th>Requests</th>
                <th>Device-hours</th>
                <th>Revenue</th>
                <th>Running cost</th>
                <th>Price / 1M tokens</th>
                <th>Cost / 1M tokens</th>
                <th>Margin</th>
              </tr>
            </thead>
            <tbody>
              {economics.data.endpoints.map((e) => (
                <tr key={e.endpointId}>
                  <td>
                    <Link href={`/endpoints/${e.endpointId}`}>{e.name}</Link>
                  </td>
                  <td>{e.requests.toLocaleString("tr-TR")}</td>
                  <td>{e.gpuHours}</td>
                  <td>{formatMoney(e.revenue, CUR)}</td>
                  <td>{formatMoney(e.infraCost, CUR)}</td>
                  <td>{e.pricePer1MTokens ? formatMoney(e.pricePer1MTokens, CUR) : "—"}</td>
                  <td>{e.costPer1MTokens ? formatMoney(e.costPer1MTokens, CUR) : "—"}</td>
                  <td className={Number(e.margin) < 0 ? "error" : undefined}>
                    {formatMoney(e.margin, CUR)} {e.marginPct !== null && <span className="muted">({e.marginPct.toFixed(0)}%)</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <Pricing canEdit={canEditPricing} />
    </>
  );
}

function Pricing({ canEdit }: { canEdit: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const pricing = useQuery(trpc.usage.pricing.queryOptions());
  // A new price starts in an hour by default: never in the past, where calls were already charged.
  const [price, setPrice] = useState(() => ({ planId: "", effectiveFrom: new Date(Date.now() + 3_600_000).toISOString().slice(0, 16), inputPer1M: "", outputPer1M: "", perRequest: "0" }));
  const [rate, setRate] = useState({ key: "", perHour: "" });
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.usage.pricing.queryKey() });
  const addPrice = useMutation(trpc.usage.addPlanPrice.mutationOptions({ meta: { handlesErrors: true }, onSuccess: () => (toast.success("Price added: it applies from its date"), refresh()) }));
  const setHw = useMutation(trpc.usage.setHardwareRate.mutationOptions({ meta: { handlesErrors: true }, onSuccess: () => (toast.success("Rate set from this hour"), refresh()) }));
  if (!pricing.data) return null;
  const errors = { ...fieldErrorsOf(addPrice.error), ...fieldErrorsOf(setHw.error) };
  return (
    <div className="grid-2">
      <div className="panel">
        <h2>Price plans</h2>
        {pricing.data.plans.map((p) => (
          <div key={p.id} style={{ marginBottom: 12 }}>
            <b>{p.name}</b>{" "}
            <span className="muted">
              ({p._count.tenants} tenants, {p.currency})
            </span>
            <PlanLimits plan={p} canEdit={canEdit} />
            <table>
              <thead>
                <tr>
                  <th>From</th>
                  <th>Scope</th>
                  <th>In / 1M</th>
                  <th>Out / 1M</th>
                  <th>Per request</th>
                </tr>
              </thead>
              <tbody>
                {p.prices.map((x) => (
                  <tr key={x.id}>
                    <td>{formatDateTime(x.effectiveFrom)}</td>
                    <td>{x.endpointId ? "one endpoint" : "all endpoints"}</td>
                    <td>{x.inputPer1M.toString()}</td>
                    <td>{x.outputPer1M.toString()}</td>
                    <td>{x.perRequest.toString()}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
        {canEdit && (
          <div className="form-row">
            <select aria-label="Plan" value={price.planId} onChange={(e) => setPrice({ ...price, planId: e.target.value })}>
              <option value="">Plan…</option>
              {pricing.data.plans.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
            <input aria-label="Effective from" type="datetime-local" value={price.effectiveFrom} onChange={(e) => setPrice({ ...price, effectiveFrom: e.target.value })} />
            <input aria-label="Input per 1M tokens" placeholder="input / 1M" value={price.inputPer1M} onChange={(e) => setPrice({ ...price, inputPer1M: e.target.value })} />
            <input aria-label="Output per 1M tokens" placeholder="output / 1M" value={price.outputPer1M} onChange={(e) => setPrice({ ...price, outputPer1M: e.target.value })} />
            <input aria-label="Per request" placeholder="per request" value={price.perRequest} onChange={(e) => setPrice({ ...price, perRequest: e.target.value })} />
            <button className="primary" disabled={!price.planId || addPrice.isPending} onClick={() => addPrice.mutate({ ...price, effectiveFrom: new Date(price.effectiveFrom) })}>
              Add dated price
            </button>
          </div>
        )}
        {addPrice.error && <div className="form-error">{Object.values(errors).flat().join(" ") || formErrorOf(addPrice.error)}</div>}
      </div>
      <div className="panel">
        <h2>Hardware rates (per hour)</h2>
        <table>
          <thead>
            <tr>
              <th>Hardware</th>
              <th>Count</th>
              <th>Rate</th>
            </tr>
          </thead>
          <tbody>
            {pricing.data.hardware.map((h) => (
              <tr key={`${h.kind}:${h.key}`}>
                <td>
                  {h.kind === "gpu" ? "GPU" : "CPU node"} {h.key}
                </td>
                <td>{h.count}</td>
                <td>{h.rate ? formatMoney(h.rate.perHour.toString(), CUR) : <span className="error">no rate: costs nothing in the cost figures</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {canEdit && (
          <div className="actions" style={{ marginTop: 8 }}>
            <select aria-label="Hardware" value={rate.key} onChange={(e) => setRate({ ...rate, key: e.target.value })}>
              <option value="">Hardware…</option>
              {pricing.data.hardware.map((h) => (
                <option key={`${h.kind}:${h.key}`} value={`${h.kind}:${h.key}`}>
                  {h.key}
                </option>
              ))}
            </select>
            <input aria-label="Rate per hour" placeholder="per hour" value={rate.perHour} onChange={(e) => setRate({ ...rate, perHour: e.target.value })} style={{ width: 100 }} />
            <button
              disabled={!rate.key || setHw.isPending}
              onClick={() => {
                const [kind, ...key] = rate.key.split(":");
                setHw.mutate({ kind: kind as "gpu" | "cpu", key: key.join(":"), perHour: rate.perHour, effectiveFrom: new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000) });
              }}
            >
              Set rate
            </button>
          </div>
        )}
        {setHw.error && <div className="form-error">{Object.values(fieldErrorsOf(setHw.error)).flat().join(" ") || formErrorOf(setHw.error)}</div>}
      </div>
    </div>
  );
}
