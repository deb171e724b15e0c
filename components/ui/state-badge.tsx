"use client";

import { useTranslations } from "use-intl";
import type { Messages } from "@/server/shared/i18n/messages";

const TONE: Record<string, string> = {
  ready: "badge-ok",
  pending: "badge-warn",
  loading: "badge-warn",
  draining: "badge-warn",
  not_ready: "badge-warn",
  failed: "badge-danger",
  down: "badge-danger",
};

type KnownState = keyof Messages["common"]["states"];

/** A replica's, version's or node's state as a coloured badge: green serving, amber in between, red broken. */
export function StateBadge({ state, title }: { state: string; title?: string }) {
  const t = useTranslations("common.states");
  return (
    <span className={`badge ${TONE[state] ?? ""}`} title={title} data-state={state}>
      {t.has(state as KnownState) ? t(state as KnownState) : state}
    </span>
  );
}
