"use client";

import { useState } from "react";
import { useTranslations } from "use-intl";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { Field } from "@/components/ui/field";
import { FormActions } from "@/components/ui/page-head";
import { FormPanel, useSaveOptions } from "@/components/ui/form-panel";
import { useToast } from "@/components/ui/toast";

/** A model's name and description, and retiring it (refused, with the reason, while an endpoint serves it). */
export function EditModelForm({ model: m, onDone }: { model: { id: string; name: string; description: string; updatedAt: Date | string }; onDone: () => void }) {
  const trpc = useTRPC();
  const saved = useSaveOptions();
  const refresh = trpc.model.get.queryKey({ id: m.id });
  const [f, setF] = useState({ name: m.name, description: m.description });
  const t = useTranslations("models.lifecycle");
  const tc = useTranslations("common");
  const update = useMutation(trpc.model.update.mutationOptions(saved({ refresh, toast: () => t("saved", { name: f.name }), then: onDone })));
  const retire = useMutation(trpc.model.retire.mutationOptions(saved({ refresh, toast: () => t("retiredWithVersions", { name: m.name }), then: onDone })));
  const errors = fieldErrorsOf(update.error);
  return (
    <FormPanel title={t("edit", { name: m.name })} error={update.error ?? retire.error} onSubmit={() => update.mutate({ id: m.id, expectedUpdatedAt: new Date(m.updatedAt), name: f.name, description: f.description })}>
      <div className="form-row">
        <Field id="me-name" label={t("name")} errors={errors.name}>
          <input id="me-name" value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} aria-invalid={!!errors.name} />
        </Field>
        <Field id="me-desc" label={t("description")} errors={errors.description}>
          <input id="me-desc" value={f.description} onChange={(e) => setF({ ...f, description: e.target.value })} aria-invalid={!!errors.description} />
        </Field>
      </div>
      <FormActions submit={tc("save")} pending={update.isPending} onCancel={onDone} />
      <div className="actions">
        <button type="button" className="danger" disabled={retire.isPending} onClick={() => confirm(t("retireConfirm", { name: m.name })) && retire.mutate({ id: m.id })}>
          {t("retireModel")}
        </button>
      </div>
    </FormPanel>
  );
}

/** Retires one version; the server refuses, saying which replicas or traffic still use it. */
export function RetireVersionButton({ modelId, version }: { modelId: string; version: { id: string; version: string } }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("models.lifecycle");
  const retire = useMutation(
    trpc.model.retireVersion.mutationOptions({
      onSuccess: async () => {
        await qc.invalidateQueries({ queryKey: trpc.model.get.queryKey({ id: modelId }) });
        toast.success(t("versionRetired", { version: version.version }));
      },
    }),
  );
  return (
    <button className="danger" disabled={retire.isPending} onClick={() => confirm(t("retireVersionConfirm", { version: version.version })) && retire.mutate({ id: version.id })}>
      {t("retire")}
    </button>
  );
}
