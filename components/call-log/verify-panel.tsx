"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { formatDateTime } from "@/components/ui/format";

/** The chain check: both sealed chains end to end; a failure names the first segment that no longer matches. */
export function VerifyPanel() {
  const trpc = useTRPC();
  const status = useQuery(trpc.callLog.seal.status.queryOptions());
  const verify = useMutation(trpc.callLog.seal.verify.mutationOptions());
  const r = verify.data;
  return (
    <section className="panel" aria-label="Tamper evidence">
      <div className="actions" style={{ justifyContent: "space-between" }}>
        <div>
          <b>Tamper evidence</b>{" "}
          <span className="muted">
            {status.data?.length
              ? status.data.map((s) => `${s.stream}: ${s.segments} hourly segments sealed through ${formatDateTime(s.sealedThrough)}`).join(" · ")
              : "nothing sealed yet (hours are sealed once their grace period has passed)"}
          </span>
        </div>
        <div className="actions">
          <a className="button" href="/api/audit/heads" download title="The signed chain heads and the seal's public key: keep them outside Kule, and check the database against them with npm run audit:verify -- --heads">
            Download signed heads
          </a>
          <button onClick={() => verify.mutate()} disabled={verify.isPending}>
            {verify.isPending ? "Verifying…" : "Verify chain"}
          </button>
        </div>
      </div>
      {r && (
        <p role="status" className={r.ok ? "" : "error"}>
          {r.ok
            ? `Chain intact: ${r.rows.toLocaleString("en")} sealed rows checked in ${r.ms} ms; ${r.heads.checked} signed heads hold.`
            : r.firstBad
              ? `First bad segment: ${r.firstBad.stream} ${r.firstBad.start} – ${r.firstBad.end}: ${r.firstBad.reason} (sealed ${r.firstBad.sealedRows} rows, now ${r.firstBad.actualRows}).`
              : `A signed head fails: ${r.heads.problem}`}
        </p>
      )}
      {verify.isError && <p className="error">{verify.error.message}</p>}
    </section>
  );
}
