"use client";

import type { ReactNode } from "react";
import { useTranslations } from "use-intl";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";

type DriverView = inferRouterOutputs<AppRouter>["system"]["status"]["cluster"];

/** Which driver runs the cluster, and whether what it drives is simulated. */
export function DriverNotice({ driver }: { driver: Pick<DriverView, "kind" | "standIn" | "url"> }) {
  const t = useTranslations("cluster.driver");
  const code = (c: ReactNode) => <code>{c}</code>;
  if (driver.kind === "sim") return <>{t("sim")}</>;
  if (driver.standIn) return <>{t.rich("standIn", { url: driver.url ?? "", code })}</>;
  return <>{t.rich("k8s", { url: driver.url ?? "", code })}</>;
}
