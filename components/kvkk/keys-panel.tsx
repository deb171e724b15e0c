"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { Loading } from "@/components/ui/field";
import { useFormat } from "@/components/i18n/use-format";
import { Legal } from "@/components/ui/legal";

/** Key versions of the call log's personal data at rest, rotation, and which gateway holds which version. */
export function KeysPanel({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("kvkk.keys");
  const fmt = useFormat();
  const s = useQuery(trpc.kvkk.keys.status.queryOptions());
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.kvkk.keys.status.queryKey() });
  const activate = useMutation(trpc.kvkk.keys.activate.mutationOptions({ meta: { handlesErrors: true }, onSuccess: (v) => (toast.success(t("activated", { version: v.version })), refresh()) }));
  const retire = useMutation(trpc.kvkk.keys.retire.mutationOptions({ meta: { handlesErrors: true }, onSuccess: (v) => (toast.success(t("retiredToast", { version: v.version })), refresh()) }));
  const rekey = useMutation(trpc.kvkk.keys.rekey.mutationOptions({ meta: { handlesErrors: true }, onSuccess: refresh }));
  if (s.isPending) return <Loading what={t("loading")} />;
  if (s.isError) return <p className="error">{s.error.message}</p>;
  const { versions, gateways, clearIpRows } = s.data;
  const lagging = gateways.filter((g) => g.state === "behind" || g.state === "refusing");
  const stateText = (g: (typeof gateways)[number]) => (g.state === "ok" ? t("stateOk") : g.state === "behind" ? t("stateBehind") : g.state === "refusing" ? t("stateRefusing", { reason: g.refusing ?? "" }) : t("stateGone"));
  return (
    <section className="panel" aria-label={t("aria")}>
      <h2>
        <Legal id="kvkk.keys.title" />
      </h2>
      <p className="muted">{t("intro")}</p>
      {lagging.length > 0 && (
        <p className="error" role="alert">
          {t("lagging", { count: lagging.length })}
        </p>
      )}
      <table aria-label={t("versionsAria")}>
        <thead>
          <tr>
            <th>{t("version")}</th>
            <th>{t("ring")}</th>
            <th>{t("fingerprint")}</th>
            <th>{t("state")}</th>
            <th>{t("rows")}</th>
            {canWrite && <th />}
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.version}>
              <td>{v.version}</td>
              <td>{v.ring === "special" ? t("ringSpecial") : t("ringStandard")}</td>
              <td>
                <code>{v.fingerprint}</code>
              </td>
              <td>{v.retiredAt ? t("retired", { date: fmt.date(v.retiredAt) }) : v.current && v.currentSince ? t("current", { date: fmt.dateTime(v.currentSince) }) : v.heldHere ? t("held") : t("notHeld")}</td>
              <td>{t("rowsValue", { ip: fmt.number(v.ipRows), subject: fmt.number(v.subjectRows) })}</td>
              {canWrite && (
                <td>
                  {!v.current && !v.retiredAt && v.heldHere && <button onClick={() => activate.mutate({ version: v.version })}>{t("makeCurrent")}</button>}{" "}
                  {!v.current && !v.retiredAt && <button onClick={() => retire.mutate({ version: v.version })}>{t("retire")}</button>}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {[activate.error, retire.error, rekey.error].filter(Boolean).map((e) => (
        <p key={e!.message} className="error">
          {e!.message}
        </p>
      ))}
      {clearIpRows > 0 && <p className="muted">{t("clearRows", { count: fmt.number(clearIpRows) })}</p>}
      {canWrite && (
        <p className="actions">
          <button onClick={() => rekey.mutate({ batch: 10_000 })} disabled={rekey.isPending}>
            {t("rekey")}
          </button>
        </p>
      )}
      {/* Progress, then the batch's result until the next one: the rows column above moves with it. */}
      {(rekey.isPending || rekey.data) && (
        <p role="status">{rekey.isPending ? t("rekeying") : t("rekeyed", { rekeyed: fmt.number(rekey.data!.rekeyed), clear: fmt.number(rekey.data!.encryptedClear), remaining: fmt.number(rekey.data!.remaining) })}</p>
      )}
      {!gateways.length ? (
        <p className="muted">{t("noGateways")}</p>
      ) : (
        <table aria-label={t("gatewaysAria")}>
          <thead>
            <tr>
              <th>{t("gateway")}</th>
              <th>{t("holds")}</th>
              <th>{t("logsUnder")}</th>
              <th>{t("state")}</th>
              <th>{t("reported")}</th>
            </tr>
          </thead>
          <tbody>
            {gateways.map((g) => (
              <tr key={g.instance}>
                <td>
                  <code>{g.instance}</code>
                </td>
                <td>{Object.values(g.holds).flat().map((h) => `${h.version} (${h.fingerprint.slice(0, 8)})`).join(", ")}</td>
                <td>{g.logsUnder.join(", ") || "—"}</td>
                <td className={g.state === "ok" ? undefined : "error"}>{stateText(g)}</td>
                <td>{fmt.dateTime(g.reportedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
