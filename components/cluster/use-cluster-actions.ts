"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { inferRouterInputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";

type Fault = inferRouterInputs<AppRouter>["cluster"]["injectFault"];

function faultDone(f: Fault): string {
  switch (f.type) {
    case "kill-replica":
      return "Replica killed";
    case "slow-replica":
      return `Replica slowed ×${f.factor}`;
    case "gpu-xid":
      return `XID ${f.xid ?? 79} raised on the GPU`;
    case "node-status":
      return f.status === "down" ? "Node taken down" : "Node brought up";
    case "version-errors":
      return "Version error share set";
  }
}

/** The cluster page's operator actions: each refreshes the view and says what it did. */
export function useClusterActions() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const done = async (text: string) => {
    await qc.invalidateQueries({ queryKey: trpc.cluster.pathKey() });
    toast.success(text);
  };
  const fault = useMutation(trpc.cluster.injectFault.mutationOptions({ onSuccess: (_r, f) => done(faultDone(f)) }));
  const cordon = useMutation(trpc.cluster.setCordon.mutationOptions({ onSuccess: (n) => done(`${n.hostname} ${n.cordoned ? "cordoned" : "uncordoned"}`) }));
  const stop = useMutation(trpc.cluster.stopReplica.mutationOptions({ onSuccess: () => done("Replica stopped") }));
  const clear = useMutation(trpc.cluster.clearFaults.mutationOptions({ onSuccess: () => done("All faults cleared") }));
  return { fault, cordon, stop, clear, busy: fault.isPending || cordon.isPending || stop.isPending || clear.isPending };
}
