"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { TRPCClientError } from "@trpc/client";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";
import { useTRPC } from "@/components/trpc/client";
import { useErrorText } from "@/components/trpc/use-error-text";
import { useToast } from "@/components/ui/toast";

export type Endpoint = inferRouterOutputs<AppRouter>["endpoint"]["get"];

/**
 * The traffic changes an operator makes on an endpoint (the split, promote, blue-green, rollback,
 * removing a version), with one place for what follows each: the endpoint and its history
 * refreshed, the draft dropped, a toast, or the error shown in the panel. A stale view (CONFLICT)
 * reloads the current state rather than overwrite someone else's change.
 */
export function useTrafficActions(endpoint: Endpoint, onSaved: () => void) {
  const { errorText } = useErrorText();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("endpoints.traffic");
  const [message, setMessage] = useState<string | null>(null);
  const refresh = (after?: Endpoint) => {
    if (after) qc.setQueryData(trpc.endpoint.get.queryKey({ id: endpoint.id }), after);
    void qc.invalidateQueries({ queryKey: trpc.endpoint.get.queryKey({ id: endpoint.id }) });
    void qc.invalidateQueries({ queryKey: trpc.rollout.history.queryKey({ endpointId: endpoint.id }) });
    onSaved();
  };
  const done = (text: string) => (after: Endpoint) => {
    refresh(after);
    setMessage(null);
    toast.success(text);
  };
  const opts = {
    meta: { handlesErrors: true },
    onError: (err: unknown) => {
      setMessage(errorText(err));
      if (err instanceof TRPCClientError && err.data?.code === "CONFLICT") refresh();
    },
  };
  const save = useMutation(trpc.rollout.setWeights.mutationOptions({ ...opts, onSuccess: done(t("splitSaved")) }));
  const promote = useMutation(trpc.rollout.promote.mutationOptions({ ...opts, onSuccess: done(t("promoted")) }));
  const blueGreen = useMutation(trpc.rollout.blueGreen.mutationOptions({ ...opts, onSuccess: done(t("switched")) }));
  const rollback = useMutation(trpc.rollout.rollback.mutationOptions({ ...opts, onSuccess: done(t("rolledBack")) }));
  const remove = useMutation(trpc.rollout.removeVersion.mutationOptions({ ...opts, onSuccess: done(t("removed")) }));
  const busy = save.isPending || promote.isPending || blueGreen.isPending || rollback.isPending || remove.isPending;
  return { save, promote, blueGreen, rollback, remove, busy, message, clearMessage: () => setMessage(null) };
}

export type TrafficActions = ReturnType<typeof useTrafficActions>;
