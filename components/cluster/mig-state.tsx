"use client";

import { useNow } from "@/components/ui/use-now";

interface MigState {
  config: string;
  state: string;
  since: Date | string | null;
  reason: string | null;
}

function age(since: Date | string | null, now: number): string {
  if (!since || !now) return "";
  const s = Math.max(0, Math.round((now - new Date(since).getTime()) / 1000));
  return s < 90 ? `${s} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;
}

/**
 * Where a MIG change asked of a node's MIG manager stands: pending (and for how long — a change
 * stuck pending must not look like one just asked for), failed with the reason, or done.
 */
export function MigStateBadge({ mig }: { mig: MigState | null }) {
  const now = useNow();
  if (!mig) return null;
  const title = `MIG config ${mig.config}`;
  if (mig.state === "success") return <span className="badge" title={title}>MIG applied</span>;
  if (mig.state === "failed")
    return (
      <span className="badge badge-danger" title={mig.reason ?? title}>
        MIG change failed{mig.reason ? `: ${mig.reason}` : ""}
      </span>
    );
  return (
    <span className="badge badge-warn" title={title}>
      MIG {mig.state}
      {mig.since ? ` for ${age(mig.since, now)}` : ""}
    </span>
  );
}
