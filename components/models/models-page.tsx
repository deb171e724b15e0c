"use client";

import Link from "next/link";
import { useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { Empty, Field } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { PageHead, FormActions } from "@/components/ui/page-head";
import { formatDateTime } from "@/components/ui/format";
import { MODEL_TASKS } from "@/server/shared/catalog";
import { FormPanel, useSaveOptions } from "@/components/ui/form-panel";

export function ModelsPage({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const models = useQuery(trpc.model.list.queryOptions(undefined, PANEL_QUERY));
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHead
        title="Models"
        action={
          canWrite &&
          !creating && (
            <button className="primary" onClick={() => setCreating(true)}>
              New model
            </button>
          )
        }
      >
        What the cluster can serve: each model and its versions.
      </PageHead>
      {creating && <CreateModelForm onDone={() => setCreating(false)} />}
      <div className="panel">
        <QueryState
          query={models}
          what="models"
          empty={<Empty title="No models yet">{canWrite ? "Register one with “New model”, then add its first version." : "An operator registers models here."}</Empty>}
        >
          {(data) => (
            <table>
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Task</th>
                  <th>Versions</th>
                  <th>Endpoints</th>
                  <th>Created</th>
                </tr>
              </thead>
              <tbody>
                {data.map((m) => (
                  <tr key={m.id}>
                    <td>
                      <Link href={`/models/${m.id}`}>{m.name}</Link> {m.retiredAt && <span className="badge badge-danger">retired</span>}
                      {m.description && <div className="muted">{m.description}</div>}
                    </td>
                    <td>
                      <span className="badge">{m.task}</span>
                    </td>
                    <td>{m.versions.map((v) => v.version).join(", ") || <span className="muted">none yet</span>}</td>
                    <td>{m._count.endpoints}</td>
                    <td>{formatDateTime(m.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </div>
    </>
  );
}

function CreateModelForm({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const saved = useSaveOptions();
  const [name, setName] = useState("");
  const [task, setTask] = useState<(typeof MODEL_TASKS)[number]>("llm");
  const [description, setDescription] = useState("");
  const create = useMutation(trpc.model.create.mutationOptions(saved({ refresh: trpc.model.list.queryKey(), toast: (m) => `Model ${m.name} created`, then: onDone })));
  const errors = fieldErrorsOf(create.error);
  return (
    <FormPanel
      title="New model"
      error={create.error}
      onSubmit={() => {
        create.mutate({ name, task, description });
      }}
    >
      <div className="form-row">
        <Field id="model-name" label="Name" hint="Lowercase, like llama-3.1-8b-instruct" errors={errors.name}>
          <input id="model-name" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!!errors.name} />
        </Field>
        <Field id="model-task" label="Task" errors={errors.task}>
          <select id="model-task" value={task} onChange={(e) => setTask(e.target.value as (typeof MODEL_TASKS)[number])}>
            {MODEL_TASKS.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </Field>
      </div>
      <Field id="model-description" label="Description" errors={errors.description}>
        <textarea id="model-description" rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <FormActions submit="Create model" pending={create.isPending} onCancel={onDone} />
    </FormPanel>
  );
}
