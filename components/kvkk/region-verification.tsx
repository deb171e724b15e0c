"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { useFormat } from "@/components/i18n/use-format";

/** External servers' region labels: the gateway routes to one only once an admin recorded how its location was checked. */
export function RegionVerification({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("kvkk.regions");
  const fmt = useFormat();
  const list = useQuery(trpc.kvkk.regions.list.queryOptions());
  const verify = useMutation(
    trpc.kvkk.regions.verify.mutationOptions({
      onSuccess: () => (toast.success(t("done")), void qc.invalidateQueries({ queryKey: trpc.kvkk.regions.list.queryKey() })),
      onError: (e) => toast.error(e.message),
    }),
  );
  if (!list.data?.length) return null;
  return (
    <>
      <h3>{t("title")}</h3>
      <p className="muted">{t("intro")}</p>
      <table aria-label={t("tableAria")}>
        <thead>
          <tr>
            <th>{t("server")}</th>
            <th>{t("regionLabel")}</th>
            <th>{t("verified")}</th>
            {canWrite && <th />}
          </tr>
        </thead>
        <tbody>
          {list.data.map((r) => (
            <tr key={r.id}>
              <td>
                {r.externalUrl} {r.plainHttpAllowed && <span className="badge badge-danger">{t("plainHttp")}</span>}
              </td>
              <td>{r.region}</td>
              <td>{r.regionVerifiedAt ? t("verifiedBy", { date: fmt.dateTime(r.regionVerifiedAt), email: r.regionVerifiedByEmail ?? "", evidence: r.regionEvidence ?? "" }) : <span className="badge badge-danger">{t("unverified")}</span>}</td>
              {canWrite && (
                <td>
                  {!r.regionVerifiedAt && (
                    <button
                      onClick={() => {
                        const evidence = prompt(t("prompt", { url: r.externalUrl ?? "", region: r.region }));
                        if (evidence) verify.mutate({ replicaId: r.id, evidence });
                      }}
                    >
                      {t("verify")}
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
