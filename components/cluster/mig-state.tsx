"use client";

import { useTranslations } from "use-intl";
import { useNow } from "@/components/ui/use-now";
import { formatSeconds, type ViewT } from "@/components/endpoints/rollout-view";
import type { Messages } from "@/server/shared/i18n/messages";

type State = keyof Messages["common"]["states"];

interface MigState {
  config: string;
  state: string;
  since: Date | string | null;
  reason: string | null;
}

function age(since: Date | string | null, now: number, tv: ViewT): string {
  if (!since || !now) return "";
  const s = Math.max(0, Math.round((now - new Date(since).getTime()) / 1000));
  // Rounded to whole minutes or hours, so formatSeconds names the unit.
  return formatSeconds(s < 90 ? s : s < 5400 ? Math.round(s / 60) * 60 : Math.round(s / 3600) * 3600, tv);
}

/**
 * Where a MIG change asked of a node's MIG manager stands: pending (and for how long — a change
 * stuck pending must not look like one just asked for), failed with the reason, or done.
 */
export function MigStateBadge({ mig }: { mig: MigState | null }) {
  const now = useNow();
  const t = useTranslations("cluster.mig");
  const tv = useTranslations("endpoints.view");
  const ts = useTranslations("common.states");
  if (!mig) return null;
  const title = t("config", { config: mig.config });
  if (mig.state === "success") return <span className="badge" title={title}>{t("applied")}</span>;
  if (mig.state === "failed")
    return (
      <span className="badge badge-danger" title={mig.reason ?? title}>
        {t("failed")}
        {mig.reason ? `: ${mig.reason}` : ""}
      </span>
    );
  return (
    <span className="badge badge-warn" title={title}>
      {(() => {
        const state = ts.has(mig.state as State) ? ts(mig.state as State) : mig.state;
        return mig.since ? t("stateFor", { state, age: age(mig.since, now, tv) }) : t("state", { state });
      })()}
    </span>
  );
}
