"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import type { inferRouterInputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";

type Fault = inferRouterInputs<AppRouter>["cluster"]["injectFault"];

function faultDone(f: Fault, t: ReturnType<typeof useTranslations<"cluster.actions">>): string {
  switch (f.type) {
    case "kill-replica":
      return t("killed");
    case "slow-replica":
      return t("slowed", { factor: String(f.factor) });
    case "gpu-xid":
      return t("xid", { xid: String(f.xid ?? 79) });
    case "node-status":
      return f.status === "down" ? t("nodeDown") : t("nodeUp");
    case "version-errors":
      return t("versionErrors");
  }
}

/** The cluster page's operator actions: each refreshes the view and says what it did. */
export function useClusterActions() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("cluster.actions");
  const done = async (text: string) => {
    await qc.invalidateQueries({ queryKey: trpc.cluster.pathKey() });
    toast.success(text);
  };
  const fault = useMutation(trpc.cluster.injectFault.mutationOptions({ onSuccess: (_r, f) => done(faultDone(f, t)) }));
  const cordon = useMutation(trpc.cluster.setCordon.mutationOptions({ onSuccess: (n) => done(t(n.cordoned ? "cordoned" : "uncordoned", { host: n.hostname })) }));
  const stop = useMutation(trpc.cluster.stopReplica.mutationOptions({ onSuccess: () => done(t("stopped")) }));
  const clear = useMutation(trpc.cluster.clearFaults.mutationOptions({ onSuccess: () => done(t("cleared")) }));
  return { fault, cordon, stop, clear, busy: fault.isPending || cordon.isPending || stop.isPending || clear.isPending };
}
