"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";

/** The chain check: both sealed chains end to end; a failure names the first segment that no longer matches. */
export function VerifyPanel() {
  const trpc = useTRPC();
  const t = useTranslations("callLog.verify");
  const fmt = useFormat();
  const status = useQuery(trpc.callLog.seal.status.queryOptions());
  const verify = useMutation(trpc.callLog.seal.verify.mutationOptions());
  const r = verify.data;
  return (
    <section className="panel" aria-label={t("aria")}>
      <div className="actions" style={{ justifyContent: "space-between" }}>
        <div>
          <b>{t("title")}</b>{" "}
          <span className="muted">
            {status.data?.length
              ? status.data.map((s) => t("sealed", { stream: s.stream, segments: fmt.number(s.segments), date: fmt.dateTime(s.sealedThrough) })).join(" · ")
              : t("nothing")}
          </span>
        </div>
        <div className="actions">
          <a className="button" href="/api/audit/heads" download title={t("headsTitle")}>
            {t("downloadHeads")}
          </a>
          <button onClick={() => verify.mutate()} disabled={verify.isPending}>
            {verify.isPending ? t("verifying") : t("verify")}
          </button>
        </div>
      </div>
      {r && (
        <p role="status" className={r.ok ? "" : "error"}>
          {r.ok
            ? t("intact", { rows: fmt.number(r.rows), ms: fmt.number(r.ms), heads: fmt.number(r.heads.checked) })
            : r.firstBad
              ? t("firstBad", { stream: r.firstBad.stream, start: r.firstBad.start, end: r.firstBad.end, reason: r.firstBad.reason, sealed: fmt.number(r.firstBad.sealedRows), actual: fmt.number(r.firstBad.actualRows) })
              : t("headFails", { problem: r.heads.problem ?? "" })}
        </p>
      )}
      {verify.isError && <p className="error">{verify.error.message}</p>}
    </section>
  );
}
