"use client";

import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf, formErrorOf } from "@/components/trpc/errors";
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
  const trpc = useTRPC();
  const saved = useSaveOptions();
  const refresh = trpc.endpoint.get.queryKey({ id: e.id });
  const [f, setF] = useState({ name: e.name, stickySessions: e.stickySessions, regionConstraint: e.regionConstraint ?? "" });
  const update = useMutation(trpc.endpoint.update.mutationOptions(saved({ refresh, toast: () => `${f.name} saved`, then: onDone })));
  const retire = useMutation(trpc.endpoint.retire.mutationOptions(saved({ refresh, toast: () => `${e.name} retired: the gateways answer 404 for ${e.slug}`, then: onDone })));
  const errors = fieldErrorsOf(update.error);
  return (
    <FormPanel
      title={`Edit ${e.name}`}
      error={update.error}
      onSubmit={() => update.mutate({ id: e.id, expectedRevision: e.revision, name: f.name, stickySessions: f.stickySessions, regionConstraint: f.regionConstraint })}
    >
      <div className="form-row">
        <Field id="es-name" label="Name" errors={errors.name}>
          <input id="es-name" value={f.name} onChange={(ev) => setF({ ...f, name: ev.target.value })} aria-invalid={!!errors.name} />
        </Field>
        <Field id="es-region" label="Region rule" hint="A region or prefix such as tr-; empty: anywhere" errors={errors.regionConstraint}>
          <input id="es-region" value={f.regionConstraint} onChange={(ev) => setF({ ...f, regionConstraint: ev.target.value })} aria-invalid={!!errors.regionConstraint} />
        </Field>
      </div>
      <label>
        <input type="checkbox" checked={f.stickySessions} onChange={(ev) => setF({ ...f, stickySessions: ev.target.checked })} /> Sticky sessions: a caller&apos;s requests go to one version (by
        its <code>user</code> field or X-Kule-Session header)
      </label>
      <FormActions submit="Save" pending={update.isPending} onCancel={onDone} />
      <hr />
      <p className="muted">
        Retiring takes <code>{e.slug}</code> out of service: clients get 404 and its slug stays taken; its history stays. Refused while replicas run behind it or it was called in the last 15 minutes.
      </p>
      {retire.error && (
        <div className="form-error" role="alert">
          {formErrorOf(retire.error)}
        </div>
      )}
      <div className="actions">
        <button type="button" className="danger" disabled={retire.isPending} onClick={() => confirm(`Retire ${e.name}? Calls to ${e.slug} will get 404.`) && retire.mutate({ id: e.id, expectedRevision: e.revision })}>
          Retire endpoint
        </button>
      </div>
    </FormPanel>
  );
}
