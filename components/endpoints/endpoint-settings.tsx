"use client";

import { useState } from "react";
import { useTranslations } from "use-intl";
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { useErrorText } from "@/components/trpc/use-error-text";
import { Field } from "@/components/ui/field";
import { FormActions } from "@/components/ui/page-head";
import { FormPanel, useSaveOptions } from "@/components/ui/form-panel";

interface Editable {
  id: string;
  name: string;
  slug: string;
  revision: number;
  stickySessions: boolean;
  regionConstraint: string | null;
  retiredAt: Date | string | null;
}

/** The endpoint's own settings (SLOs have their form on the SLA card), and retiring it. */
export function EndpointSettings({ endpoint: e, onDone }: { endpoint: Editable; onDone: () => void }) {
  const { formErrorOf } = useErrorText();
  const trpc = useTRPC();
  const t = useTranslations("endpoints.settings");
  const tc = useTranslations("common");
  const saved = useSaveOptions();
  const refresh = trpc.endpoint.get.queryKey({ id: e.id });
  const [f, setF] = useState({ name: e.name, stickySessions: e.stickySessions, regionConstraint: e.regionConstraint ?? "" });
  const update = useMutation(trpc.endpoint.update.mutationOptions(saved({ refresh, toast: () => t("saved", { name: f.name }), then: onDone })));
  const retire = useMutation(trpc.endpoint.retire.mutationOptions(saved({ refresh, toast: () => t("retired", { name: e.name, slug: e.slug }), then: onDone })));
  const errors = fieldErrorsOf(update.error);
  return (
    <FormPanel
      title={t("title", { name: e.name })}
      error={update.error}
      onSubmit={() => update.mutate({ id: e.id, expectedRevision: e.revision, name: f.name, stickySessions: f.stickySessions, regionConstraint: f.regionConstraint })}
    >
      <div className="form-row">
        <Field id="es-name" label={t("name")} errors={errors.name}>
          <input id="es-name" value={f.name} onChange={(ev) => setF({ ...f, name: ev.target.value })} aria-invalid={!!errors.name} />
        </Field>
        <Field id="es-region" label={t("region")} hint={t("regionHint")} errors={errors.regionConstraint}>
          <input id="es-region" value={f.regionConstraint} onChange={(ev) => setF({ ...f, regionConstraint: ev.target.value })} aria-invalid={!!errors.regionConstraint} />
        </Field>
      </div>
      <label>
        <input type="checkbox" checked={f.stickySessions} onChange={(ev) => setF({ ...f, stickySessions: ev.target.checked })} />{" "}
        {t.rich("sticky", { code: (c) => <code>{c}</code> })}
      </label>
      <FormActions submit={tc("save")} pending={update.isPending} onCancel={onDone} />
      <hr />
      <p className="muted">
        {t.rich("retireExplain", { slug: e.slug, code: (c) => <code>{c}</code> })}
      </p>
      {retire.error && (
        <div className="form-error" role="alert">
          {formErrorOf(retire.error)}
        </div>
      )}
      <div className="actions">
        <button type="button" className="danger" disabled={retire.isPending} onClick={() => confirm(t("retireConfirm", { name: e.name, slug: e.slug })) && retire.mutate({ id: e.id, expectedRevision: e.revision })}>
          {t("retire")}
        </button>
      </div>
    </FormPanel>
  );
}
