"use client";

import { useState } from "react";
import { useTranslations } from "use-intl";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { useToast } from "@/components/ui/toast";

/** Scale from zero, per endpoint: how many calls each gateway holds while a replica starts, and for how long. */
export function ColdStartSettings({ endpointId, current }: { endpointId: string; current: { coldStartQueueLimit: number; coldStartTimeoutSeconds: number } }) {
  const t = useTranslations("endpoints.autoscale");
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [f, setF] = useState({ queue: String(current.coldStartQueueLimit), timeout: String(current.coldStartTimeoutSeconds) });
  const save = useMutation(
    trpc.autoscale.setColdStart.mutationOptions({ meta: { handlesErrors: true }, onSuccess: () => (void qc.invalidateQueries({ queryKey: trpc.autoscale.history.queryKey({ endpointId }) }), toast.success(t("coldSaved"))) }),
  );
  const errors = fieldErrorsOf(save.error);
  const message = errors.coldStartQueueLimit?.[0] ?? errors.coldStartTimeoutSeconds?.[0];
  return (
    <form
      className="actions muted"
      style={{ fontSize: 12 }}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ endpointId, coldStartQueueLimit: Number(f.queue), coldStartTimeoutSeconds: Number(f.timeout) });
      }}
    >
      <label htmlFor={`cs-queue-${endpointId}`}>{t("coldHold")}</label>
      <input id={`cs-queue-${endpointId}`} inputMode="numeric" style={{ width: 70 }} value={f.queue} onChange={(e) => setF({ ...f, queue: e.target.value })} aria-invalid={!!errors.coldStartQueueLimit} />
      <label htmlFor={`cs-timeout-${endpointId}`}>{t("coldCalls")}</label>
      <input id={`cs-timeout-${endpointId}`} inputMode="numeric" style={{ width: 70 }} value={f.timeout} onChange={(e) => setF({ ...f, timeout: e.target.value })} aria-invalid={!!errors.coldStartTimeoutSeconds} />
      <span>{t("coldThen")}</span>
      <button type="submit" disabled={save.isPending}>
        {t("coldSave")}
      </button>
      {message && <span className="error">{message}</span>}
    </form>
  );
}
